// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test, run in the guest too (tests/convert-guest.c):
 * shaped like drivers/platform/x86/intel/telemetry/debugfs.c.  A debugfs
 * file created with debugfs_create_file(), whose proxy calls .read and
 * .write only, and whose fops has .read = seq_read, a .write that parses
 * a number with kstrtou32_from_user(), seq_lseek, no .owner.  Given
 * .write_iter under the proxy, every write would fail with EINVAL: the
 * converted file must still take writes.
 *
 *	/sys/kernel/debug/guest_write/verbosity	"verbosity N\n"; write N
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

static struct dentry *guest_write_dir;
static u32 verbosity;

static int verbosity_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "verbosity %u\n", verbosity);
	return 0;
}

static ssize_t verbosity_write(struct file *file, const char __user *userbuf,
			       size_t count, loff_t *ppos)
{
	u32 v;
	int err;

	err = kstrtou32_from_user(userbuf, count, 0, &v);
	if (err)
		return err;
	verbosity = v;
	return count;
}

static int verbosity_open(struct inode *inode, struct file *file)
{
	return single_open(file, verbosity_show, inode->i_private);
}

static const struct file_operations verbosity_ops = {
	.open		= verbosity_open,
	.read		= seq_read,
	.write		= verbosity_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init guest_write_init(void)
{
	guest_write_dir = debugfs_create_dir("guest_write", NULL);
	debugfs_create_file("verbosity", S_IFREG | 0644, guest_write_dir, NULL,
			    &verbosity_ops);
	return 0;
}
module_init(guest_write_init);

static void __exit guest_write_exit(void)
{
	debugfs_remove_recursive(guest_write_dir);
}
module_exit(guest_write_exit);

MODULE_DESCRIPTION("scripts/convert's test: a debugfs file's write");
MODULE_LICENSE("GPL");

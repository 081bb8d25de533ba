// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test, run in the guest too (tests/convert-guest.c):
 * shaped like drivers/platform/x86/apple-gmux.c's debugfs file.  A fops
 * without .owner (.open, .write, then .read without a trailing comma),
 * given to debugfs_create_file().  Under the proxy the VFS calls debugfs'
 * code; moved to debugfs_create_file_unsafe(), it calls the module's, so
 * the fops needs .owner: an open file must keep the module in, or rmmod
 * would leave it calling freed code.  The write takes 1 or 4 bytes, each
 * with a copy of its own: wrapped, where the read is native.
 *
 *	/sys/kernel/debug/guest_owner/port_data	a u32, read whole; write
 *						1 byte (the low one) or 4
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/uaccess.h>

struct guest_owner {
	struct dentry	*dir;
	u32		port_data;
};

static struct guest_owner guest_owner_dev;

static ssize_t port_data_write(struct file *file, const char __user *userbuf,
			       size_t count, loff_t *ppos)
{
	struct guest_owner *go = file->private_data;

	if (*ppos)
		return -EINVAL;
	if (count == 1) {
		u8 data;

		if (copy_from_user(&data, userbuf, 1))
			return -EFAULT;
		go->port_data = (go->port_data & ~0xffU) | data;
	} else if (count == 4) {
		u32 data;

		if (copy_from_user(&data, userbuf, 4))
			return -EFAULT;
		go->port_data = data;
	} else {
		return -EINVAL;
	}
	return count;
}

static ssize_t port_data_read(struct file *file, char __user *userbuf,
			      size_t count, loff_t *ppos)
{
	struct guest_owner *go = file->private_data;
	u32 data = go->port_data;

	return simple_read_from_buffer(userbuf, count, ppos, &data,
				       sizeof(data));
}

static const struct file_operations port_data_ops = {
	.open = simple_open,
	.write = port_data_write,
	.read = port_data_read
};

static int __init guest_owner_init(void)
{
	guest_owner_dev.dir = debugfs_create_dir("guest_owner", NULL);
	debugfs_create_file("port_data", 0644, guest_owner_dev.dir,
			    &guest_owner_dev, &port_data_ops);
	return 0;
}
module_init(guest_owner_init);

static void __exit guest_owner_exit(void)
{
	debugfs_remove_recursive(guest_owner_dev.dir);
}
module_exit(guest_owner_exit);

MODULE_DESCRIPTION("scripts/convert's test: a debugfs fops without .owner");
MODULE_LICENSE("GPL");

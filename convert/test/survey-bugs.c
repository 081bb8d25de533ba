// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: what the survey of Debian's 7.3 source found
 * broken (convert/survey.txt): an #include inside #if, which the helpers'
 * include must not follow (drivers/char/ipmi/ssif_bmc.c); a function that
 * isn't static, which other files may call by its name, so it is wrapped
 * (fs/debugfs/file.c); NAME_iter defined already, so NAME is left alone
 * (fs/proc/inode.c); and a fops that sets .read beside a .read_iter of
 * another name, whose .read stays, since a second .read_iter would
 * override the first (drivers/char/mem.c's zero_fops).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#if IS_ENABLED(CONFIG_KUNIT)
#include <kunit/test.h>
#endif

static char data[8];

ssize_t shared_read(struct file *file, char __user *buf, size_t count,
		    loff_t *ppos);

ssize_t shared_read(struct file *file, char __user *buf, size_t count,
		    loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

static ssize_t taken_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return 0;
}

static ssize_t taken_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

static ssize_t both_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

static ssize_t iter_both(struct kiocb *iocb, struct iov_iter *to)
{
	return 0;
}

static ssize_t plain_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	if (count > sizeof(data) || copy_from_user(data, buf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations shared_fops = {
	.read		= shared_read,
	.write		= plain_write,
};

static const struct file_operations taken_fops = {
	.read		= taken_read,
	.read_iter	= taken_read_iter,
};

static const struct file_operations both_fops = {
	.read		= both_read,
	.read_iter	= iter_both,
};

/* Misc devices, never registered: how the VFS would call the fops. */
static struct miscdevice survey_misc[] __maybe_unused = {
	{ .name = "shared", .fops = &shared_fops },
	{ .name = "taken", .fops = &taken_fops },
	{ .name = "both", .fops = &both_fops },
};

MODULE_LICENSE("GPL");

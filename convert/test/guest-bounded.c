// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test, run in the guest too (tests/convert-guest.c):
 * copies whose length the caller's count may not bound.  The read copies
 * one byte whatever count says, as a status byte read often does: .read
 * returned 1 for read(fd, buf, 0).  copy_to_iter() can't go past count,
 * so a native form would fail that read with -EFAULT: the read is
 * wrapped, with the reason.  The write tests count against its copy's
 * length first: bounded, native.
 *
 *	/dev/guest_bounded	read: the status byte, always one;
 *				write: one byte, the new status
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char status = 'k';

static ssize_t bounded_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	if (copy_to_user(buf, &status, 1))
		return -EFAULT;
	return 1;
}

static ssize_t bounded_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	char c;

	if (count < 1)
		return -EINVAL;
	if (copy_from_user(&c, buf, 1))
		return -EFAULT;
	status = c;
	return 1;
}

static const struct file_operations bounded_fops = {
	.owner	= THIS_MODULE,
	.read	= bounded_read,
	.write	= bounded_write,
};

static struct miscdevice bounded_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "guest_bounded",
	.fops	= &bounded_fops,
};

module_misc_device(bounded_misc);
MODULE_DESCRIPTION("scripts/convert's test: copies not bounded by count");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's upstream test: a driver of the test tree, converted
 * natively with mainline calls only (copy_to_iter, copy_from_iter).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char kcecho_data[16];

static ssize_t kcecho_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	size_t n = min(count, sizeof(kcecho_data));

	if (copy_to_user(buf, kcecho_data, n))
		return -EFAULT;
	return n;
}

static ssize_t kcecho_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	if (count > sizeof(kcecho_data))
		return -EINVAL;
	if (copy_from_user(kcecho_data, buf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations kcecho_fops = {
	.owner	= THIS_MODULE,
	.read	= kcecho_read,
	.write	= kcecho_write,
};

static struct miscdevice kcecho_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "kcecho",
	.fops	= &kcecho_fops,
};
module_misc_device(kcecho_dev);

MODULE_DESCRIPTION("scripts/convert's upstream test: echo");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's upstream test: a driver of the test tree, converted
 * natively with mainline calls only (copy_to_iter, copy_from_iter).
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

static char kcbyte_data[1];

static ssize_t kcbyte_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	size_t n = min(count, sizeof(kcbyte_data));

	if (copy_to_user(buf, kcbyte_data, n))
		return -EFAULT;
	return n;
}

static ssize_t kcbyte_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	if (count > sizeof(kcbyte_data))
		return -EINVAL;
	if (copy_from_user(kcbyte_data, buf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations kcbyte_fops = {
	.owner	= THIS_MODULE,
	.read	= kcbyte_read,
	.write	= kcbyte_write,
};

static struct miscdevice kcbyte_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "kcbyte",
	.fops	= &kcbyte_fops,
};
module_misc_device(kcbyte_dev);

MODULE_DESCRIPTION("scripts/convert's upstream test: one byte");
MODULE_LICENSE("GPL");

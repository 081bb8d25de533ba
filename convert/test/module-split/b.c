// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: the second file of a.c's module. */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "split.h"

static char data[16];

static ssize_t local_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 2);
}

static const struct file_operations split_fops = {
	.owner		= THIS_MODULE,
	.read		= split_read,
	.write		= split_write,
};

static const struct file_operations local_b_fops = {
	.owner		= THIS_MODULE,
	.read		= local_read,
};

static struct miscdevice b_misc[] __maybe_unused = {
	{ .minor = MISC_DYNAMIC_MINOR, .name = "split", .fops = &split_fops },
	{ .minor = MISC_DYNAMIC_MINOR, .name = "split_b",
	  .fops = &local_b_fops },
};

MODULE_LICENSE("GPL");

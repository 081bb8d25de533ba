// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test: a module of two files, converted in one call
 * (a.c b.c split.h).  split_read() is named by a fops here that stays
 * legacy (debugfs_create_file_size() has no _unsafe form) and by one in
 * b.c that could change: it stays legacy in both, whole or not at all.
 * split_write() is named by b.c alone: converted, its declaration in
 * split.h too.  Each file has a static local_read() of its own.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "split.h"

static char data[16];

ssize_t split_read(struct file *file, char __user *buf, size_t count,
		   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

ssize_t split_write(struct file *file, const char __user *buf, size_t count,
		    loff_t *ppos)
{
	return simple_write_to_buffer(data, sizeof(data), ppos, buf, count);
}

static ssize_t local_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, 1);
}

static const struct file_operations sized_fops = {
	.owner		= THIS_MODULE,
	.read		= split_read,
};

static const struct file_operations local_a_fops = {
	.owner		= THIS_MODULE,
	.read		= local_read,
};

static struct miscdevice a_misc __maybe_unused = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "split_a",
	.fops	= &local_a_fops,
};

static void __maybe_unused split_a_files(struct dentry *dir)
{
	debugfs_create_file_size("sized", 0400, dir, NULL, &sized_fops, 16);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test of --tree: a module of three files compiled as
 * one against the kernel tree.  This one converts and builds ("build:
 * builds"); broken.c's output doesn't build where it did (refused, with
 * the compiler's errors, and the call fails); unbuildable.c doesn't
 * build there as it is ("build: not checked").
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static ssize_t fine_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "fine\n", 5);
}

static const struct file_operations fine_fops = {
	.owner	= THIS_MODULE,
	.read	= fine_read,
};

static struct miscdevice fine_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tree_fine",
	.fops	= &fine_fops,
};

module_misc_device(fine_misc);
MODULE_DESCRIPTION("scripts/convert's test of --tree");
MODULE_LICENSE("GPL");

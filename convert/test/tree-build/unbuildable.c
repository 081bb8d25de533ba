// SPDX-License-Identifier: GPL-2.0
/*
 * A file the tree can't build as it is (a header it lacks): its output
 * isn't judged ("build: not checked"), and the call doesn't fail for it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/iterconv-no-such-header.h>

static ssize_t unbuildable_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, "none\n", 5);
}

static const struct file_operations unbuildable_fops = {
	.owner	= THIS_MODULE,
	.read	= unbuildable_read,
};

static struct miscdevice unbuildable_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tree_unbuildable",
	.fops	= &unbuildable_fops,
};

static int __init unbuildable_init(void)
{
	return misc_register(&unbuildable_misc);
}
module_init(unbuildable_init);

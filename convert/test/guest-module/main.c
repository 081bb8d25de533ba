// SPDX-License-Identifier: GPL-2.0
/*
 * scripts/convert's test, run in the guest too (tests/convert-guest.c):
 * the first file of a module of two, shaped like LDD3's scull/main.c.  It
 * defines kitmod_read() and kitmod_write(), which extra.c's fops name too,
 * and the device /dev/kitmod.  Converted with extra.c and kitmod.h in one
 * call, the functions and every fops that names them change together.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#include "kitmod.h"

static inline struct kitmod_dev *kitmod_of(struct file *file)
{
	/* misc_open() left our struct miscdevice in private_data. */
	return container_of(file->private_data, struct kitmod_dev, misc);
}

ssize_t kitmod_read(struct file *file, char __user *buf, size_t count,
		    loff_t *ppos)
{
	struct kitmod_dev *dev = kitmod_of(file);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = simple_read_from_buffer(buf, count, ppos, dev->data, dev->size);
	mutex_unlock(&dev->lock);
	return ret;
}

ssize_t kitmod_write(struct file *file, const char __user *buf, size_t count,
		     loff_t *ppos)
{
	struct kitmod_dev *dev = kitmod_of(file);
	ssize_t ret = count;

	if (count > KITMOD_SIZE)
		return -EFBIG;
	mutex_lock(&dev->lock);
	if (copy_from_user(dev->data, buf, count))
		ret = -EFAULT;
	else
		dev->size = count;
	mutex_unlock(&dev->lock);
	return ret;
}

static const struct file_operations kitmod_fops = {
	.owner		= THIS_MODULE,
	.read		= kitmod_read,
	.write		= kitmod_write,
	.llseek		= default_llseek,
};

static struct kitmod_dev kitmod_main = {
	.misc = {
		.minor	= MISC_DYNAMIC_MINOR,
		.name	= "kitmod",
		.fops	= &kitmod_fops,
	},
	.lock = __MUTEX_INITIALIZER(kitmod_main.lock),
};

static int __init kitmod_init(void)
{
	int ret;

	ret = misc_register(&kitmod_main.misc);
	if (ret)
		return ret;
	ret = kitmod_extra_init();
	if (ret)
		goto out_main;
	return 0;

out_main:
	misc_deregister(&kitmod_main.misc);
	return ret;
}
module_init(kitmod_init);

static void __exit kitmod_exit(void)
{
	kitmod_extra_exit();
	misc_deregister(&kitmod_main.misc);
}
module_exit(kitmod_exit);

MODULE_DESCRIPTION("scripts/convert's test: a module of two files");
MODULE_LICENSE("GPL");

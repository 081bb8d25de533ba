// SPDX-License-Identifier: GPL-2.0
/*
 * The second file of the module, shaped like LDD3's scull/access.c: a
 * device of its own, /dev/kitmod_single (one open at a time), whose fops
 * name main.c's kitmod_read() and kitmod_write(), set up from a table.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "kitmod.h"

static atomic_t kitmod_single_available = ATOMIC_INIT(1);

static int kitmod_single_open(struct inode *inode, struct file *file)
{
	if (!atomic_dec_and_test(&kitmod_single_available)) {
		atomic_inc(&kitmod_single_available);
		return -EBUSY;
	}
	return 0;
}

static int kitmod_single_release(struct inode *inode, struct file *file)
{
	atomic_inc(&kitmod_single_available);
	return 0;
}

static const struct file_operations kitmod_single_fops = {
	.owner		= THIS_MODULE,
	.read		= kitmod_read,
	.write		= kitmod_write,
	.open		= kitmod_single_open,
	.release	= kitmod_single_release,
	.llseek		= default_llseek,
};

static struct kitmod_adev_info {
	const char			*name;
	struct kitmod_dev		*dev;
	const struct file_operations	*fops;
} kitmod_adevs[] = {
	{ "kitmod_single", NULL, &kitmod_single_fops },
};

static struct kitmod_dev kitmod_single;

static int kitmod_extra_setup(struct kitmod_adev_info *info)
{
	struct kitmod_dev *dev = info->dev;

	mutex_init(&dev->lock);
	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = info->name;
	dev->misc.fops = info->fops;
	return misc_register(&dev->misc);
}

int kitmod_extra_init(void)
{
	kitmod_adevs[0].dev = &kitmod_single;
	return kitmod_extra_setup(&kitmod_adevs[0]);
}

void kitmod_extra_exit(void)
{
	misc_deregister(&kitmod_adevs[0].dev->misc);
}

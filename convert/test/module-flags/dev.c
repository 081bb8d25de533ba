// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: the fops of common.c's functions (see chip.c). */
#include <linux/miscdevice.h>
#include <linux/module.h>

#include "flags.h"

static const struct file_operations flags_fops = {
	.owner		= THIS_MODULE,
	.read		= flags_read,
	.write		= flags_write,
	.poll		= flags_poll,
};

static struct miscdevice flags_misc = {
	.minor		= MISC_DYNAMIC_MINOR,
	.name		= "kitconv-flags",
	.fops		= &flags_fops,
};

static int __init flags_init(void)
{
	int ret = flags_chip_init();

	return ret ? ret : misc_register(&flags_misc);
}
module_init(flags_init);

static void __exit flags_exit(void)
{
	misc_deregister(&flags_misc);
}
module_exit(flags_exit);

MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: a file spatch can't parse is left alone. */
#include <linux/fs.h>

static ssize_t broken_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	if (count > ) {
		return copy_to_user(buf, "x", 1) ? -EFAULT : 1;
}

static const struct file_operations broken_fops = {
	.read		= broken_read,
};

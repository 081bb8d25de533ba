// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: no file_operations at all: nothing to do. */
#include <linux/fs.h>

static ssize_t lonely_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: already converted: nothing to convert. */
#include <linux/fs.h>
#include <linux/uio.h>

static ssize_t done_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return 0;
}

static const struct file_operations done_fops = {
	.read_iter	= done_read_iter,
};

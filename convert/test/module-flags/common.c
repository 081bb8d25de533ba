// SPDX-License-Identifier: GPL-2.0
/* scripts/convert's test: the functions of dev.c's fops (see chip.c). */
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "flags.h"

static char data[16];
static bool busy;
static DECLARE_WAIT_QUEUE_HEAD(flags_wait);

ssize_t flags_read(struct file *file, char __user *buf, size_t count,
		   loff_t *ppos)
{
	return simple_read_from_buffer(buf, count, ppos, data, sizeof(data));
}

ssize_t flags_write(struct file *file, const char __user *buf, size_t count,
		    loff_t *ppos)
{
	if (busy) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(flags_wait, !busy))
			return -ERESTARTSYS;
	}
	return simple_write_to_buffer(data, sizeof(data), ppos, buf, count);
}

__poll_t flags_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &flags_wait, wait);
	return busy ? 0 : EPOLLIN | EPOLLOUT;
}

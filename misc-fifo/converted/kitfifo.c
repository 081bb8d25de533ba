// SPDX-License-Identifier: GPL-2.0
/*
 * kitfifo - a misc device holding a bounded queue of events
 *
 * What this template teaches:
 * - a misc device (/dev/kitfifo) with a dynamic minor; its node is 0600;
 * - a record queue built on kfifo: each write enqueues one whole event,
 *   each read returns one whole event, and a short buffer or a bad user
 *   pointer fails cleanly without losing or half-queueing anything;
 * - blocking and non-blocking I/O with two wait queues, poll, FIONREAD,
 *   and a poll whose EPOLLOUT means "your refused event now fits";
 * - a stream file: no seeking, no pread/pwrite.
 *
 * This is the converted form: .read_iter/.write_iter (one call per readv or
 * writev), IOCB_NOWAIT honoured like O_NONBLOCK (and no sleeping for a
 * mutex), FMODE_NOWAIT, .splice_read.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kfifo.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/wait.h>

#include <asm/ioctls.h>		/* FIONREAD */

#include "compat.h"		/* copy_splice_read before 6.5 */

/* Each event is stored behind a 2-byte length header (kfifo_rec_ptr_2). */
#define KITFIFO_RECSIZE		2
#define KITFIFO_MAX_EVENT	U16_MAX
/* kfifo_alloc() uses kmalloc(): keep the queue well within what it gives. */
#define KITFIFO_MAX_QUEUE	SZ_1M

static unsigned int max_event = 4096;
module_param(max_event, uint, 0444);
MODULE_PARM_DESC(max_event, "Largest event in bytes, 1..65535 (default 4096)");

static unsigned int queue_bytes = 65536;
module_param(queue_bytes, uint, 0444);
MODULE_PARM_DESC(queue_bytes,
		 "Queue size in bytes, rounded up to a power of two (default 65536)");

/*
 * kfifo needs no lock with one reader and one writer at a time, so each side
 * gets its own mutex and a reader never waits for a writer's lock (or the
 * other way round). Nobody sleeps on an empty or full queue while holding a
 * mutex: the lock is dropped first, so others (and FIONREAD) can go on.
 * A mutex is thus held only for a copy, and O_NONBLOCK callers wait for it
 * too (interruptibly), as a pipe's readers and writers wait for its mutex:
 * O_NONBLOCK is about the queue, and a caller that poll() told "readable"
 * must not get -EAGAIN because another reader was in the middle of a copy.
 */
struct kitfifo {
	struct miscdevice	misc;		/* our /dev node */
	struct kfifo_rec_ptr_2	fifo;		/* the queued events */
	struct mutex		read_lock;	/* one reader: fifo out side, rbuf */
	struct mutex		write_lock;	/* one writer: fifo in side, wbuf */
	wait_queue_head_t	readq;		/* readers wait here for an event */
	wait_queue_head_t	writeq;		/* writers wait here for room */
	char			*rbuf;		/* bounce buffer, max_event bytes */
	char			*wbuf;		/* bounce buffer, max_event bytes */
};

/*
 * An open file.  It remembers what poll() must wait for on its behalf: room
 * for the last event it was refused (-EAGAIN) for lack of room.
 */
struct kitfifo_file {
	struct kitfifo	*kf;		/* the device */
	unsigned int	refused;	/* that event's size; 0: none since */
};

static const struct file_operations kitfifo_fops;

static struct kitfifo kitfifo_dev = {
	.misc = {
		.minor	= MISC_DYNAMIC_MINOR,
		.name	= "kitfifo",
		.fops	= &kitfifo_fops,
		/*
		 * No .mode: the node is 0600, root's alone, as the kernel
		 * makes device nodes.  Who else may use it is policy, for
		 * udev, not the driver: a rule such as
		 *   KERNEL=="kitfifo", GROUP="kit", MODE="0660"
		 * in /etc/udev/rules.d/ opens it to a group.
		 */
	},
};

/* Size of the next event, 0 if none. Call with read_lock held. */
static unsigned int kitfifo_next_len(struct kitfifo *kf)
{
	/* kfifo_peek_len() reads a stale header on an empty queue. */
	if (kfifo_is_empty(&kf->fifo))
		return 0;
	return kfifo_peek_len(&kf->fifo);
}

/* LAB 1: under IOCB_NOWAIT, the lock is only tried */
/*
 * IOCB_NOWAIT asks more than O_NONBLOCK: not to sleep at all, not even for
 * a mutex held for a copy.  Then the lock is only tried.
 */
static int kitfifo_lock(struct mutex *lock, bool nowait)
{
	if (nowait)
		return mutex_trylock(lock) ? 0 : -EAGAIN;
	if (mutex_lock_interruptible(lock))
		return -ERESTARTSYS;
	return 0;
}

/* LAB 1: open lets IOCB_NOWAIT in */
static int kitfifo_open(struct inode *inode, struct file *file)
{
	struct kitfifo_file *kfile;

	kfile = kzalloc(sizeof(*kfile), GFP_KERNEL);
	if (!kfile)
		return -ENOMEM;
	/* misc_open() left our struct miscdevice in private_data. */
	kfile->kf = container_of(file->private_data, struct kitfifo, misc);
	file->private_data = kfile;
	/* Let preadv2(RWF_NOWAIT) and io_uring reach us with IOCB_NOWAIT. */
	file->f_mode |= FMODE_NOWAIT;
	return stream_open(inode, file);
}

/* LAB 1: the read: one event a call; IOCB_NOWAIT as O_NONBLOCK */
/*
 * The event goes through a bounce buffer: peek it into rbuf, copy it to the
 * caller, and only then remove it from the queue, so a fault loses nothing.
 */
static ssize_t kitfifo_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct kitfifo_file *kfile = file->private_data;
	struct kitfifo *kf = kfile->kf;
	bool nowait = iocb->ki_flags & IOCB_NOWAIT;
	bool nonblock = (file->f_flags & O_NONBLOCK) || nowait;
	size_t count = iov_iter_count(to);
	unsigned int len;
	ssize_t ret;

	if (!count)
		return 0;
	for (;;) {
		ret = kitfifo_lock(&kf->read_lock, nowait);
		if (ret)
			return ret;
		len = kitfifo_next_len(kf);
		if (len)
			break;
		mutex_unlock(&kf->read_lock);
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(kf->readq,
					       !kfifo_is_empty(&kf->fifo));
		if (ret)
			return ret;
	}
	if (len > count) {
		ret = -EMSGSIZE;	/* the event stays for a bigger buffer */
		goto out;
	}
	len = kfifo_out_peek(&kf->fifo, kf->rbuf, len);
	if (copy_to_iter(kf->rbuf, len, to) != len) {
		ret = -EFAULT;
		goto out;
	}
	kfifo_skip(&kf->fifo);
	ret = len;
	wake_up_interruptible(&kf->writeq);
out:
	mutex_unlock(&kf->read_lock);
	return ret;
}

/* LAB 1: the write: one event a call; IOCB_NOWAIT as O_NONBLOCK */
/*
 * Wait for room first, then copy: while we hold write_lock the room can only
 * grow (readers only take events out), so the event goes in whole or not at
 * all, and a fault leaves the queue untouched.
 */
static ssize_t kitfifo_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct kitfifo_file *kfile = file->private_data;
	struct kitfifo *kf = kfile->kf;
	bool nowait = iocb->ki_flags & IOCB_NOWAIT;
	bool nonblock = (file->f_flags & O_NONBLOCK) || nowait;
	size_t count = iov_iter_count(from);
	ssize_t ret;

	if (!count)
		return 0;
	if (count > max_event)
		return -EMSGSIZE;
	for (;;) {
		ret = kitfifo_lock(&kf->write_lock, nowait);
		if (ret)
			return ret;
		if (kfifo_avail(&kf->fifo) >= count)
			break;
		mutex_unlock(&kf->write_lock);
		if (nonblock) {
			/* poll() says EPOLLOUT to this file once it fits. */
			WRITE_ONCE(kfile->refused, count);
			return -EAGAIN;
		}
		ret = wait_event_interruptible(kf->writeq,
					       kfifo_avail(&kf->fifo) >= count);
		if (ret)
			return ret;
	}
	WRITE_ONCE(kfile->refused, 0);		/* it found room */
	if (!copy_from_iter_full(kf->wbuf, count, from)) {
		ret = -EFAULT;
		goto out;
	}
	kfifo_in(&kf->fifo, kf->wbuf, count);
	ret = count;
	wake_up_interruptible(&kf->readq);
out:
	mutex_unlock(&kf->write_lock);
	return ret;
}

/* LAB END */

static int kitfifo_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static __poll_t kitfifo_poll(struct file *file, poll_table *wait)
{
	struct kitfifo_file *kfile = file->private_data;
	struct kitfifo *kf = kfile->kf;
	unsigned int need = max(READ_ONCE(kfile->refused), 1U);
	__poll_t mask = 0;

	poll_wait(file, &kf->readq, wait);
	poll_wait(file, &kf->writeq, wait);
	if (!kfifo_is_empty(&kf->fifo))
		mask |= EPOLLIN | EPOLLRDNORM;
	/*
	 * poll can't know the size of the caller's next event, but it knows
	 * the last one this file was refused for lack of room: EPOLLOUT means
	 * that this one fits now, or, if none was refused since the file's
	 * last write went in, that some event does, if only a 1-byte one.  A
	 * writer of big events that polls after -EAGAIN then sleeps until its
	 * event fits (each read wakes it to look), instead of going round
	 * poll() and -EAGAIN at full speed while small events fit.  A writer
	 * that was never refused is never kept waiting (nor is io_uring,
	 * which retries through poll).
	 */
	if (kfifo_avail(&kf->fifo) >= need)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static long kitfifo_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct kitfifo_file *kfile = file->private_data;
	struct kitfifo *kf = kfile->kf;
	int len;

	switch (cmd) {
	case FIONREAD:		/* size of the next event, 0 if none */
		if (mutex_lock_interruptible(&kf->read_lock))
			return -ERESTARTSYS;
		len = kitfifo_next_len(kf);
		mutex_unlock(&kf->read_lock);
		return put_user(len, (int __user *)arg);
	default:
		return -ENOTTY;
	}
}

/* No .llseek: stream_open() makes lseek, pread and pwrite fail (ESPIPE). */
static const struct file_operations kitfifo_fops = {
	.owner		= THIS_MODULE,	/* no rmmod while a file is open */
	.open		= kitfifo_open,
	.release	= kitfifo_release,
	/* LAB 1: read and write through iterators; splice from it too */
	.read_iter	= kitfifo_read_iter,
	.write_iter	= kitfifo_write_iter,
	/* An event bigger than the pipe's free room: -EMSGSIZE, and it stays. */
	.splice_read	= copy_splice_read,
	/* LAB END */
	.poll		= kitfifo_poll,
	.unlocked_ioctl	= kitfifo_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

static int __init kitfifo_init(void)
{
	struct kitfifo *kf = &kitfifo_dev;
	int ret;

	if (!max_event || max_event > KITFIFO_MAX_EVENT) {
		pr_err("max_event=%u: must be 1..%u (2-byte record length)\n",
		       max_event, KITFIFO_MAX_EVENT);
		return -EINVAL;
	}
	if (queue_bytes < max_event + KITFIFO_RECSIZE ||
	    queue_bytes > KITFIFO_MAX_QUEUE) {
		pr_err("queue_bytes=%u: must be %u..%u (max_event plus its %u-byte header)\n",
		       queue_bytes, max_event + KITFIFO_RECSIZE,
		       KITFIFO_MAX_QUEUE, KITFIFO_RECSIZE);
		return -EINVAL;
	}

	mutex_init(&kf->read_lock);
	mutex_init(&kf->write_lock);
	init_waitqueue_head(&kf->readq);
	init_waitqueue_head(&kf->writeq);

	ret = kfifo_alloc(&kf->fifo, queue_bytes, GFP_KERNEL);
	if (ret)
		return ret;
	ret = -ENOMEM;
	kf->rbuf = kmalloc(max_event, GFP_KERNEL);
	if (!kf->rbuf)
		goto err_free_fifo;
	kf->wbuf = kmalloc(max_event, GFP_KERNEL);
	if (!kf->wbuf)
		goto err_free_rbuf;
	ret = misc_register(&kf->misc);
	if (ret)
		goto err_free_wbuf;
	return 0;

err_free_wbuf:
	kfree(kf->wbuf);
err_free_rbuf:
	kfree(kf->rbuf);
err_free_fifo:
	kfifo_free(&kf->fifo);
	return ret;
}

static void __exit kitfifo_exit(void)
{
	struct kitfifo *kf = &kitfifo_dev;

	misc_deregister(&kf->misc);
	kfree(kf->wbuf);
	kfree(kf->rbuf);
	kfifo_free(&kf->fifo);
}

module_init(kitfifo_init);
module_exit(kitfifo_exit);

MODULE_DESCRIPTION("iterkit: misc device with a bounded event queue");
MODULE_LICENSE("GPL");

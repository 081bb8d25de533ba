/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs_iter.h - .read_iter/.write_iter debugfs files, safe against removal
 *
 * debugfs_create_file() hides a file's fops behind a "full proxy" that
 * brackets each call with debugfs_file_get()/debugfs_file_put(), so that
 * debugfs_remove() waits for calls in flight and later calls fail with
 * -EIO (a poll: EPOLLHUP).  But the proxy passes on only llseek, read,
 * write, poll, unlocked_ioctl and release (as of 7.3): a file with only
 * .read_iter gets -EINVAL on read.  So an iterator-based file is
 * created with debugfs_create_file_unsafe(), which gives its fops to the
 * VFS as they are, and each method the proxy bracketed brackets itself:
 *
 *	static ssize_t foo_read(struct kiocb *iocb, struct iov_iter *to)
 *	{
 *		...
 *	}
 *
 *	DEBUGFS_ITER_SAFE(foo_read);
 *	DEBUGFS_POLL_SAFE(foo_poll);
 *
 *	static const struct file_operations foo_fops = {
 *		.owner		= THIS_MODULE,
 *		.read_iter	= foo_read_safe,
 *		.poll		= foo_poll_safe,
 *		...
 *	};
 *
 *	debugfs_create_file_unsafe("foo", 0444, dir, data, &foo_fops);
 *
 * DEBUGFS_IOCTL_SAFE() and DEBUGFS_LLSEEK_SAFE() do the same for
 * .unlocked_ioctl and .llseek; seq_read_iter() and seq_lseek() run the
 * driver's show(), so they need it too (DEBUGFS_ITER_SAFE(seq_read_iter)).
 * debugfs protects open() of an _unsafe file itself; .release is called
 * unbracketed under the proxy too, and runs even after the removal (it
 * must not need the driver's data then); and llseek needs no protection
 * if it is a generic one (default_llseek() touches no driver data).  Keep
 * .owner = THIS_MODULE: an open file then pins the module, so its code
 * stays while the VFS can still call it (under the proxy, the proxy's code
 * was what the VFS called).  What the brackets add is for files removed
 * while the module stays (a device going away).
 *
 * A method the proxy never passed on (mmap, ...) has no macro here: under
 * _unsafe it is called as it is, removal or not, and must bracket itself
 * the same way:
 *
 *	static int foo_mmap(struct file *file, struct vm_area_struct *vma)
 *	{
 *		struct dentry *dentry = file->f_path.dentry;
 *		int ret;
 *
 *		ret = debugfs_file_get(dentry);
 *		if (ret)
 *			return ret;	(-EIO once the file is removed)
 *		ret = ...;		(the driver's data is safe to use here)
 *		debugfs_file_put(dentry);
 *		return ret;
 *	}
 */
#ifndef _KIT_DEBUGFS_ITER_H
#define _KIT_DEBUGFS_ITER_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/uio.h>

/**
 * kit_debugfs_iter_call() - run a debugfs file's read_iter or write_iter
 * handler unless the file is being removed
 * @iocb: the kiocb passed to ->read_iter() or ->write_iter()
 * @iter: the iterator passed with it
 * @fn: the handler to run
 *
 * While @fn runs, debugfs_remove() of the file waits for it to return.
 *
 * Return: what @fn returned; -EIO if the file has been removed, as
 * debugfs' proxy returns then.  On 6.1 and 6.12 also -ENOMEM, if debugfs
 * couldn't allocate its per-file data on a first call; 7.3 allocates it
 * when the file is opened, and an open that can't fails instead.
 */
static inline ssize_t
kit_debugfs_iter_call(struct kiocb *iocb, struct iov_iter *iter,
		      ssize_t (*fn)(struct kiocb *, struct iov_iter *))
{
	struct dentry *dentry = iocb->ki_filp->f_path.dentry;
	ssize_t ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = fn(iocb, iter);
	debugfs_file_put(dentry);
	return ret;
}

#ifndef DEBUGFS_ITER_SAFE
/**
 * DEBUGFS_ITER_SAFE() - define name##_safe(): handler @name, safe against
 * removal of its debugfs file
 * @name: a read_iter or write_iter handler (both have the same type)
 *
 * Put it after the handler and set ".read_iter = name_safe" (or
 * .write_iter) in fops given to debugfs_create_file_unsafe().  .poll,
 * .unlocked_ioctl and .llseek have macros of their own below; other
 * methods need the bracket written out: see the top of this file.
 */
#define DEBUGFS_ITER_SAFE(name)						\
static ssize_t name##_safe(struct kiocb *iocb, struct iov_iter *iter)	\
{									\
	return kit_debugfs_iter_call(iocb, iter, name);			\
}
#endif

/* The same bracket for a .poll, .unlocked_ioctl and .llseek handler. */
static inline __poll_t
kit_debugfs_poll_call(struct file *file, struct poll_table_struct *wait,
		      __poll_t (*fn)(struct file *, struct poll_table_struct *))
{
	struct dentry *dentry = file->f_path.dentry;
	__poll_t ret;

	/* What debugfs' proxy says of a removed file: hung up. */
	if (debugfs_file_get(dentry))
		return EPOLLHUP;
	ret = fn(file, wait);
	debugfs_file_put(dentry);
	return ret;
}

static inline long
kit_debugfs_ioctl_call(struct file *file, unsigned int cmd, unsigned long arg,
		       long (*fn)(struct file *, unsigned int, unsigned long))
{
	struct dentry *dentry = file->f_path.dentry;
	long ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = fn(file, cmd, arg);
	debugfs_file_put(dentry);
	return ret;
}

static inline loff_t
kit_debugfs_llseek_call(struct file *file, loff_t offset, int whence,
			loff_t (*fn)(struct file *, loff_t, int))
{
	struct dentry *dentry = file->f_path.dentry;
	loff_t ret;

	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = fn(file, offset, whence);
	debugfs_file_put(dentry);
	return ret;
}

#ifndef DEBUGFS_POLL_SAFE
/**
 * DEBUGFS_POLL_SAFE() - define name##_safe(): .poll handler @name, safe
 * against removal of its debugfs file (EPOLLHUP once it is removed)
 * @name: the handler
 */
#define DEBUGFS_POLL_SAFE(name)						\
static __poll_t name##_safe(struct file *file,				\
			    struct poll_table_struct *wait)		\
{									\
	return kit_debugfs_poll_call(file, wait, name);			\
}
#endif

#ifndef DEBUGFS_IOCTL_SAFE
/**
 * DEBUGFS_IOCTL_SAFE() - define name##_safe(): .unlocked_ioctl handler
 * @name, safe against removal of its debugfs file (-EIO once removed)
 * @name: the handler
 */
#define DEBUGFS_IOCTL_SAFE(name)					\
static long name##_safe(struct file *file, unsigned int cmd,		\
			unsigned long arg)				\
{									\
	return kit_debugfs_ioctl_call(file, cmd, arg, name);		\
}
#endif

#ifndef DEBUGFS_LLSEEK_SAFE
/**
 * DEBUGFS_LLSEEK_SAFE() - define name##_safe(): .llseek handler @name,
 * safe against removal of its debugfs file (-EIO once removed)
 * @name: the handler (seq_lseek(), or the driver's own)
 */
#define DEBUGFS_LLSEEK_SAFE(name)					\
static loff_t name##_safe(struct file *file, loff_t offset, int whence)	\
{									\
	return kit_debugfs_llseek_call(file, offset, whence, name);	\
}
#endif

#endif /* _KIT_DEBUGFS_ITER_H */

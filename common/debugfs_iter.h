/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs_iter.h - .read_iter/.write_iter debugfs files, safe against removal
 *
 * debugfs_create_file() hides a file's fops behind a "full proxy" that
 * brackets each call with debugfs_file_get()/debugfs_file_put(), so that
 * debugfs_remove() waits for calls in flight and later calls fail with
 * -EIO.  But the proxy passes on only llseek, read, write, poll,
 * unlocked_ioctl and release (as of 7.3): a file with only
 * .read_iter gets -EINVAL on read.  So an iterator-based file is created
 * with debugfs_create_file_unsafe(), which gives its fops to the VFS as
 * they are, and each handler does the bracketing itself:
 *
 *	static ssize_t foo_read(struct kiocb *iocb, struct iov_iter *to)
 *	{
 *		...
 *	}
 *	DEBUGFS_ITER_SAFE(foo_read);
 *
 *	static const struct file_operations foo_fops = {
 *		.owner		= THIS_MODULE,
 *		.read_iter	= foo_read_safe,
 *		...
 *	};
 *
 *	debugfs_create_file_unsafe("foo", 0444, dir, data, &foo_fops);
 *
 * debugfs protects open() of an _unsafe file itself, and llseek needs no
 * protection if it is a generic one (default_llseek() touches no driver
 * data).  Keep .owner = THIS_MODULE: an open file then pins the module, so
 * its code stays while the VFS can still call it.  What this header adds is
 * for files removed while the module stays (a device going away).
 *
 * It protects .read_iter and .write_iter only, the handlers it wraps (and
 * so the generic splice methods, which call them).  Any other method you
 * give such a file (poll, unlocked_ioctl, mmap, ...) is called as it is,
 * removal or not, and must bracket itself the same way:
 *
 *	static long foo_ioctl(struct file *file, unsigned int cmd,
 *			      unsigned long arg)
 *	{
 *		struct dentry *dentry = file->f_path.dentry;
 *		long ret;
 *
 *		ret = debugfs_file_get(dentry);
 *		if (ret)
 *			return ret;	(-EIO once the file is removed)
 *		ret = ...;		(the driver's data is safe to use here)
 *		debugfs_file_put(dentry);
 *		return ret;
 *	}
 *
 * (.release runs even after the removal: it must not need the driver's
 * data then.)
 */
#ifndef _KIT_DEBUGFS_ITER_H
#define _KIT_DEBUGFS_ITER_H

#include <linux/debugfs.h>
#include <linux/fs.h>
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
 * debugfs' proxy returns then; -ENOMEM if debugfs couldn't allocate its
 * per-file data on a first call.
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
 * .write_iter) in fops given to debugfs_create_file_unsafe().  Other
 * methods need the bracket written out: see the top of this file.
 */
#define DEBUGFS_ITER_SAFE(name)						\
static ssize_t name##_safe(struct kiocb *iocb, struct iov_iter *iter)	\
{									\
	return kit_debugfs_iter_call(iocb, iter, name);			\
}
#endif

#endif /* _KIT_DEBUGFS_ITER_H */

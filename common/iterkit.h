/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for moving a driver from .read/.write to .read_iter/.write_iter
 *
 * These are the helpers of Jens Axboe's 2024 RFC series "Kill off old fops
 * ->read() and ->write()".  The series never reached mainline (none of
 * them is there as of 7.3), so the kit carries them, header-only:
 *
 *   FOPS_READ_ITER_HELPER(fn), FOPS_WRITE_ITER_HELPER(fn)
 *   vfs_read_iter(iocb, to, fn), vfs_write_iter(iocb, from, fn)
 *   get_iter(val, from), put_iter(val, to)
 *   simple_copy_to_iter(), simple_copy_from_iter()
 *   kstrto<type>_from_iter()
 *
 * A kernel that gains one of these names wins: macros are guarded with
 * #ifndef, and functions are kit_*() inlines reached through
 * "#define name kit_name" unless KIT_HAVE_<NAME> is defined.  Kbuild.include
 * defines those by looking at the kernel's headers; without it the kit's
 * versions are used, which is always safe.
 *
 * simple_copy_to_iter() and simple_copy_from_iter() are written from the
 * contract of simple_read_from_buffer() and simple_write_to_buffer(), not
 * copied from the series (whose versions compared the position with the
 * iterator's count).
 */
#ifndef _KIT_ITERKIT_H
#define _KIT_ITERKIT_H

#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/minmax.h>
#include <linux/uio.h>

#include "compat.h"

/* ---- running a legacy ->read()/->write() from ->read_iter()/->write_iter() */

typedef ssize_t (*kit_legacy_read_t)(struct file *, char __user *, size_t,
				     loff_t *);
typedef ssize_t (*kit_legacy_write_t)(struct file *, const char __user *,
				      size_t, loff_t *);

/*
 * Length of the user segment a user-backed iterator is at.  An ITER_UBUF is
 * one segment; see compat.h about iter_iov_len().
 */
static inline size_t kit_iter_seg_len(const struct iov_iter *i)
{
	if (iter_is_ubuf(i))
		return iov_iter_count(i);
	return min(iov_iter_count(i), iter_iov_len(i));
}

/* Common body of vfs_read_iter() and vfs_write_iter(): one of the two. */
static inline ssize_t kit_vfs_rw_iter(struct kiocb *iocb, struct iov_iter *iter,
				      kit_legacy_read_t read,
				      kit_legacy_write_t write)
{
	struct file *file = iocb->ki_filp;
	loff_t *ppos = (file->f_mode & FMODE_STREAM) ? NULL : &iocb->ki_pos;
	ssize_t ret = 0;

	/* A legacy function takes a __user pointer: nothing else can reach it. */
	if (!user_backed_iter(iter))
		return -EINVAL;
	/* It also can't be told not to block, unless the file says so. */
	if ((iocb->ki_flags & IOCB_NOWAIT) && !(file->f_flags & O_NONBLOCK))
		return -EAGAIN;
	/* readv() of nothing never reached ->read(); read(fd, buf, 0) did. */
	if (!iov_iter_count(iter) && !iter_is_ubuf(iter))
		return 0;

	do {
		void __user *buf = iter_iov_addr(iter);
		size_t len = kit_iter_seg_len(iter);
		ssize_t nr;

		if (read)
			nr = read(file, buf, len, ppos);
		else
			nr = write(file, buf, len, ppos);
		if (nr < 0) {
			if (!ret)
				ret = nr;
			break;
		}
		ret += nr;
		iov_iter_advance(iter, nr);
		if ((size_t)nr != len)
			break;
	} while (iov_iter_count(iter));

	return ret;
}

/**
 * kit_vfs_read_iter() - vfs_read_iter(): ->read_iter() by a legacy ->read()
 * @iocb: the kiocb passed to ->read_iter()
 * @to: the destination passed to ->read_iter()
 * @read: the driver's legacy read function
 *
 * Calls @read once per segment of @to, as the VFS does for readv() on a
 * file that only has .read, and stops at the first short or failed
 * segment.  @read gets a NULL position for a stream file (FMODE_STREAM,
 * see stream_open()) and &@iocb->ki_pos otherwise.  @to is advanced by
 * the bytes read.  An empty ITER_UBUF (read(fd, buf, 0)) still calls @read
 * once with a count of 0, as .read did; an empty ITER_IOVEC does not.
 *
 * Return: the bytes read, or an errno if nothing was: the one @read
 * returned, -EINVAL if @to is not user memory (ITER_KVEC, ITER_BVEC,
 * ITER_PIPE: kernel_read(), splice), which is what those callers got from
 * a .read-only file, or -EAGAIN if @iocb has IOCB_NOWAIT but the file
 * isn't O_NONBLOCK, because @read has no way to be told not to block.
 *
 * One caller loses: io_uring's READ_FIXED and WRITE_FIXED, on registered
 * buffers, pass an ITER_BVEC, which gets -EINVAL here, where on a .read
 * file io_uring called .read with the buffer's user address.  (A native
 * ->read_iter() copies into the ITER_BVEC and works.)  The matrix's
 * uring-fixed column shows both.
 */
static inline ssize_t kit_vfs_read_iter(struct kiocb *iocb, struct iov_iter *to,
					kit_legacy_read_t read)
{
	return kit_vfs_rw_iter(iocb, to, read, NULL);
}

/**
 * kit_vfs_write_iter() - vfs_write_iter(): ->write_iter() by legacy ->write()
 * @iocb: the kiocb passed to ->write_iter()
 * @from: the source passed to ->write_iter()
 * @write: the driver's legacy write function
 *
 * As vfs_read_iter(), for writing: one call per segment of @from (as for
 * writev() on a .write-only file), stopping at the first short or failed
 * one; @from is advanced by the bytes written.
 *
 * Return: the bytes written, or an errno if nothing was (see
 * vfs_read_iter()).
 */
static inline ssize_t kit_vfs_write_iter(struct kiocb *iocb,
					 struct iov_iter *from,
					 kit_legacy_write_t write)
{
	return kit_vfs_rw_iter(iocb, from, NULL, write);
}

#ifndef KIT_HAVE_VFS_READ_ITER
#define vfs_read_iter kit_vfs_read_iter
#endif
#ifndef KIT_HAVE_VFS_WRITE_ITER
#define vfs_write_iter kit_vfs_write_iter
#endif

#ifndef FOPS_READ_ITER_HELPER
/**
 * FOPS_READ_ITER_HELPER() - define name##_iter() running legacy read @name
 * @name: the driver's legacy read function
 *
 * For the smallest conversion: keep the .read function, add
 * "FOPS_READ_ITER_HELPER(foo_read);" after it and set
 * ".read_iter = foo_read_iter" instead of ".read = foo_read".
 */
#define FOPS_READ_ITER_HELPER(name)					\
static ssize_t name##_iter(struct kiocb *iocb, struct iov_iter *to)	\
{									\
	return vfs_read_iter(iocb, to, name);				\
}
#endif

#ifndef FOPS_WRITE_ITER_HELPER
/**
 * FOPS_WRITE_ITER_HELPER() - define name##_iter() running legacy write @name
 * @name: the driver's legacy write function
 */
#define FOPS_WRITE_ITER_HELPER(name)					\
static ssize_t name##_iter(struct kiocb *iocb, struct iov_iter *from)	\
{									\
	return vfs_write_iter(iocb, from, name);			\
}
#endif

/* ---- get_user()/put_user() for iterators */

#ifndef get_iter
/**
 * get_iter() - copy one variable out of an iterator, like get_user()
 * @val: the variable (an lvalue; sizeof(@val) bytes are copied)
 * @from: the source iterator
 *
 * Return: 0 on success; nonzero if the iterator held fewer bytes or a
 * fault stopped the copy, in which case @from is left as it was.
 */
#define get_iter(val, from)	(!copy_from_iter_full(&(val), sizeof(val), from))
#endif

#ifndef put_iter
/**
 * put_iter() - copy one variable into an iterator, like put_user()
 * @val: the variable (an lvalue; sizeof(@val) bytes are copied)
 * @to: the destination iterator
 *
 * Return: 0 on success; nonzero if the iterator had less room or a fault
 * stopped the copy, in which case @to is left as it was.
 */
#define put_iter(val, to)	(!copy_to_iter_full(&(val), sizeof(val), to))
#endif

/* ---- simple_read_from_buffer()/simple_write_to_buffer() for iterators */

/**
 * kit_simple_copy_to_iter() - simple_copy_to_iter(): simple_read_from_buffer()
 * for ->read_iter()
 * @from: the buffer to read from
 * @ppos: the position in @from (usually &iocb->ki_pos)
 * @available: the size of @from
 * @to: the destination iterator
 *
 * Copies up to iov_iter_count(@to) bytes from @from + *@ppos, but not past
 * @available, and advances *@ppos and @to by what was copied.
 *
 * Return: the bytes copied; 0 if *@ppos is at or past @available or @to
 * is empty; -EINVAL if *@ppos is negative; -EFAULT if a fault stopped the
 * copy before the first byte.  A fault later on gives a short count.
 */
static inline ssize_t kit_simple_copy_to_iter(const void *from, loff_t *ppos,
					      size_t available,
					      struct iov_iter *to)
{
	loff_t pos = *ppos;
	size_t count = iov_iter_count(to);
	size_t copied;

	if (pos < 0)
		return -EINVAL;
	if (pos >= available || !count)
		return 0;
	count = min_t(size_t, count, available - pos);
	copied = copy_to_iter(from + pos, count, to);
	if (!copied)
		return -EFAULT;
	*ppos = pos + copied;
	return copied;
}

/**
 * kit_simple_copy_from_iter() - simple_copy_from_iter():
 * simple_write_to_buffer() for ->write_iter()
 * @to: the buffer to write to
 * @ppos: the position in @to (usually &iocb->ki_pos)
 * @available: the size of @to
 * @from: the source iterator
 *
 * Copies up to iov_iter_count(@from) bytes to @to + *@ppos, but not past
 * @available, and advances *@ppos and @from by what was copied.  Bytes
 * beyond @available are left in @from.
 *
 * Return: the bytes copied; 0 if *@ppos is at or past @available or @from
 * is empty; -EINVAL if *@ppos is negative; -EFAULT if a fault stopped the
 * copy before the first byte.  A fault later on gives a short count.
 */
static inline ssize_t kit_simple_copy_from_iter(void *to, loff_t *ppos,
						size_t available,
						struct iov_iter *from)
{
	loff_t pos = *ppos;
	size_t count = iov_iter_count(from);
	size_t copied;

	if (pos < 0)
		return -EINVAL;
	if (pos >= available || !count)
		return 0;
	count = min_t(size_t, count, available - pos);
	copied = copy_from_iter(to + pos, count, from);
	if (!copied)
		return -EFAULT;
	*ppos = pos + copied;
	return copied;
}

#ifndef KIT_HAVE_SIMPLE_COPY_TO_ITER
#define simple_copy_to_iter kit_simple_copy_to_iter
#endif
#ifndef KIT_HAVE_SIMPLE_COPY_FROM_ITER
#define simple_copy_from_iter kit_simple_copy_from_iter
#endif

/* ---- kstrto*_from_user() for iterators */

/*
 * Copy the first min(@count, @size - 1) bytes of @from into @buf and
 * terminate them, as lib/kstrtox.c does for the _from_user() versions.
 */
static inline int kit_kstrto_fetch(char *buf, size_t size,
				   struct iov_iter *from, size_t count)
{
	count = min(count, size - 1);
	if (!copy_from_iter_full(buf, count, from))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

/**
 * KIT_KSTRTO_FROM_ITER() - define kit_@name(), kstrto<type>_from_user()
 * for an iterator
 * @name: the name to define, e.g. kstrtou32_from_iter
 * @parse: the parser, e.g. kstrtou32
 * @type: the result type, e.g. u32
 *
 * Each generated function is declared as
 *
 *	int kstrtou32_from_iter(struct iov_iter *from, size_t count,
 *				unsigned int base, u32 *res);
 *
 * and keeps the contract of kstrtou32_from_user(), for an iterator of any
 * kind: it parses the first @count bytes of @from (usually
 * iov_iter_count(from)), but no more than the longest number of the type
 * plus sign and newline (34 bytes for 32 bits, 66 for 64, 10 for 8):
 * longer input is cut there, silently.  One trailing newline is allowed;
 * anything else, leading spaces included, is -EINVAL.  @base is as for
 * kstrtou32(): 0 means auto-detect.
 *
 * The bytes are consumed from @from even when they don't parse.  If @from
 * holds fewer bytes than asked for, or a fault stops the copy, @from is
 * left as it was.
 *
 * The generated function returns 0 on success (*res set); -EFAULT if the
 * bytes couldn't be copied; -EINVAL if they aren't a number; -ERANGE if it
 * doesn't fit.
 */
#define KIT_KSTRTO_FROM_ITER(name, parse, type)				\
static inline int __must_check kit_##name(struct iov_iter *from,	\
					  size_t count,			\
					  unsigned int base,		\
					  typeof(type) *res)		\
{									\
	/* sign, base 2 representation, newline, terminator */		\
	char buf[1 + sizeof(type) * 8 + 1 + 1];				\
	int ret = kit_kstrto_fetch(buf, sizeof(buf), from, count);	\
									\
	return ret ? ret : parse(buf, base, res);			\
}

KIT_KSTRTO_FROM_ITER(kstrtoull_from_iter, kstrtoull, unsigned long long)
KIT_KSTRTO_FROM_ITER(kstrtoll_from_iter, kstrtoll, long long)
KIT_KSTRTO_FROM_ITER(kstrtoul_from_iter, kstrtoul, unsigned long)
KIT_KSTRTO_FROM_ITER(kstrtol_from_iter, kstrtol, long)
KIT_KSTRTO_FROM_ITER(kstrtouint_from_iter, kstrtouint, unsigned int)
KIT_KSTRTO_FROM_ITER(kstrtoint_from_iter, kstrtoint, int)
KIT_KSTRTO_FROM_ITER(kstrtou64_from_iter, kstrtou64, u64)
KIT_KSTRTO_FROM_ITER(kstrtos64_from_iter, kstrtos64, s64)
KIT_KSTRTO_FROM_ITER(kstrtou32_from_iter, kstrtou32, u32)
KIT_KSTRTO_FROM_ITER(kstrtos32_from_iter, kstrtos32, s32)
KIT_KSTRTO_FROM_ITER(kstrtou16_from_iter, kstrtou16, u16)
KIT_KSTRTO_FROM_ITER(kstrtos16_from_iter, kstrtos16, s16)
KIT_KSTRTO_FROM_ITER(kstrtou8_from_iter, kstrtou8, u8)
KIT_KSTRTO_FROM_ITER(kstrtos8_from_iter, kstrtos8, s8)

/**
 * kit_kstrtobool_from_iter() - kstrtobool_from_iter(): kstrtobool_from_user()
 * for an iterator
 * @from: the source iterator
 * @count: how many bytes of @from hold the value
 * @res: where to store the result on success
 *
 * Only the first 3 bytes are looked at, as in kstrtobool_from_user().
 *
 * Return: 0 on success, -EFAULT or -EINVAL.
 */
static inline int __must_check kit_kstrtobool_from_iter(struct iov_iter *from,
							size_t count,
							bool *res)
{
	/* longest string needed to differentiate, newline, terminator */
	char buf[4];
	int ret = kit_kstrto_fetch(buf, sizeof(buf), from, count);

	return ret ? ret : kstrtobool(buf, res);
}

#ifndef KIT_HAVE_KSTRTOULL_FROM_ITER
#define kstrtoull_from_iter kit_kstrtoull_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOLL_FROM_ITER
#define kstrtoll_from_iter kit_kstrtoll_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOUL_FROM_ITER
#define kstrtoul_from_iter kit_kstrtoul_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOL_FROM_ITER
#define kstrtol_from_iter kit_kstrtol_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOUINT_FROM_ITER
#define kstrtouint_from_iter kit_kstrtouint_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOINT_FROM_ITER
#define kstrtoint_from_iter kit_kstrtoint_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOU64_FROM_ITER
#define kstrtou64_from_iter kit_kstrtou64_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOS64_FROM_ITER
#define kstrtos64_from_iter kit_kstrtos64_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOU32_FROM_ITER
#define kstrtou32_from_iter kit_kstrtou32_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOS32_FROM_ITER
#define kstrtos32_from_iter kit_kstrtos32_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOU16_FROM_ITER
#define kstrtou16_from_iter kit_kstrtou16_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOS16_FROM_ITER
#define kstrtos16_from_iter kit_kstrtos16_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOU8_FROM_ITER
#define kstrtou8_from_iter kit_kstrtou8_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOS8_FROM_ITER
#define kstrtos8_from_iter kit_kstrtos8_from_iter
#endif
#ifndef KIT_HAVE_KSTRTOBOOL_FROM_ITER
#define kstrtobool_from_iter kit_kstrtobool_from_iter
#endif

#endif /* _KIT_ITERKIT_H */

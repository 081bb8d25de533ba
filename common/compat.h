/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API drift between 6.1, 6.12 and newer kernels, for iterkit
 *
 * The rule: templates always call the modern name; this file makes that
 * name work on older kernels, and no template ever tests a kernel version
 * itself.  (The only kit names here are KIT_DEVNODE_CONST and
 * KIT_DEFINE_DEVNODE_MODE(), for a callback whose signature changed.)
 *
 * Each item is one small wrapper, gated on the kernel that changed it
 * (the comment names the version and the upstream commit).  Where the
 * modern name is a macro, "#ifndef name" is the gate: it is exact, and it
 * also does the right thing on a distribution kernel that backported the
 * change.  Where the modern name is a function, the gate is
 * KIT_BEFORE(version), the one test of LINUX_VERSION_CODE, and the
 * wrapper is a macro or a kit_*() inline behind "#define name kit_name",
 * so that a stable backport of the function can't clash with it.
 *
 * Not wrapped, because there is nothing to wrap:
 *  - no_llseek: a function in upstream 6.1 (Debian's 6.1 has "#define
 *    no_llseek NULL", from 6.12's "[tree-wide] finally take no_llseek
 *    out", which removed the name).  Leave .llseek unset
 *    (lseek then fails with -ESPIPE on every kernel), or call
 *    stream_open()/nonseekable_open() in open(), or use noop_llseek.
 *  - ida_simple_get()/ida_simple_remove() (gone by 7.2): use
 *    ida_alloc()/ida_free(), which every supported kernel has.
 */
#ifndef _KIT_COMPAT_H
#define _KIT_COMPAT_H

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <linux/uio.h>
#include <linux/version.h>

/* True when building for a kernel older than major.minor.sub. */
#define KIT_BEFORE(major, minor, sub)					\
	(KERNEL_VERSION(major, minor, sub) > LINUX_VERSION_CODE)

/*
 * copy_splice_read(): 6.5 ("splice: Rename direct_splice_read() to
 * copy_splice_read()", David Howells), in the series that also removed
 * generic_file_splice_read() and ITER_PIPE.  6.3 and 6.4 export the same
 * function as direct_splice_read() (for cifs), but still have
 * generic_file_splice_read() hand a .read_iter file an ITER_PIPE iterator
 * (as linux 6.3.8's and 6.4.6's fs/splice.c read), and so does 6.1.  The
 * fallback is that one, for every kernel before 6.5: a .read_iter driver
 * gets a kernel-memory iterator either way (ITER_PIPE, or ITER_BVEC from
 * 6.5), for no more than the pipe has room for (do_splice_to(), or
 * vfs_splice_read(), caps the length first).
 */
#if KIT_BEFORE(6, 5, 0)
#define copy_splice_read generic_file_splice_read
#endif

/*
 * copy_to_iter_full(): added in 6.10 (Jens Axboe's read_iter branch, with
 * the signalfd/timerfd/userfaultfd conversions); 6.1 only has
 * copy_from_iter_full().  All or nothing: on a short copy the iterator is
 * reverted and false is returned.
 */
#if KIT_BEFORE(6, 10, 0)
static __always_inline __must_check
bool kit_copy_to_iter_full(const void *addr, size_t bytes, struct iov_iter *i)
{
	size_t copied = copy_to_iter(addr, bytes, i);

	if (likely(copied == bytes))
		return true;
	iov_iter_revert(i, copied);
	return false;
}

#define copy_to_iter_full kit_copy_to_iter_full
#endif

/*
 * iter_iov_addr()/iter_iov_len(): 6.4 ("iov_iter: add iter_iov_addr() and
 * iter_iov_len() helpers", Jens Axboe) - the user address and length of
 * the segment a user-backed iterator is at.  On 6.1 an ITER_UBUF keeps its
 * address in ->ubuf (plus ->iov_offset) and an ITER_IOVEC its array in
 * ->iov; iov_iter_iovec() there reads ->iov even for ITER_UBUF, so it
 * can't be used.  Only valid for ITER_UBUF and ITER_IOVEC.  The gate is
 * the version, not "#ifndef iter_iov_addr": that tested one name for two,
 * and upstream has them as macros or functions (iter_iov_len() is a macro
 * in 6.12, a function in 7.3).
 *
 * Note that upstream's iter_iov_len() of an ITER_UBUF is "count -
 * iov_offset" in 6.4 to 6.12 (7.3's returns count), which is too small
 * once the iterator has been advanced; the 6.1 version below gives the
 * remaining count, and iterkit.h never asks iter_iov_len() about an
 * ITER_UBUF.
 */
#if KIT_BEFORE(6, 4, 0)
static inline void __user *kit_iter_iov_addr(const struct iov_iter *i)
{
	if (iter_is_ubuf(i))
		return i->ubuf + i->iov_offset;
	return i->iov->iov_base + i->iov_offset;
}

static inline size_t kit_iter_iov_len(const struct iov_iter *i)
{
	if (iter_is_ubuf(i))
		return i->count;
	return i->iov->iov_len - i->iov_offset;
}

#define iter_iov_addr(iter)	kit_iter_iov_addr(iter)
#define iter_iov_len(iter)	kit_iter_iov_len(iter)
#endif

/*
 * timer_delete()/timer_delete_sync(): 6.2 ("timers: Rename del_timer() to
 * timer_delete()" and "timers: Rename del_timer_sync() to
 * timer_delete_sync()", Thomas Gleixner), and 6.1.y from 6.1.94; the old
 * names are gone by 7.2.  The gate is 6.2, and the wrapper a macro, so
 * that on 6.1.94 and later it harmlessly stands in for the real function.
 */
#if KIT_BEFORE(6, 2, 0)
#define timer_delete(timer)		del_timer(timer)
#define timer_delete_sync(timer)	del_timer_sync(timer)
#endif

/*
 * timer_shutdown_sync(): 6.2 ("timers: Provide timer_shutdown[_sync]()",
 * Thomas Gleixner), and 6.1.y only from 6.1.158.  It waits for a running
 * callback, like timer_delete_sync(), and also keeps the timer from being
 * armed again.  Before it, timer_delete_sync() is as safe for a caller
 * that knows nothing can arm the timer any more once it is called.  The
 * watchdog's exit knows it from its module reference: a running watchdog
 * holds the module, so exit runs only once the watchdog has stopped, and a
 * stopped watchdog's callback arms nothing (it may still be returning from
 * an expiry, which timer_delete_sync() waits for).  The fallback is
 * defined on every kernel, so that the self-test compiles and runs it
 * everywhere; only the name is gated.
 */
static inline int kit_timer_shutdown_sync(struct timer_list *timer)
{
	return timer_delete_sync(timer);
}

#if KIT_BEFORE(6, 1, 158)
#define timer_shutdown_sync(timer)	kit_timer_shutdown_sync(timer)
#endif

/*
 * timer_container_of(): 6.16 ("treewide, timers: Rename from_timer() to
 * timer_container_of()"); from_timer() is gone by 7.2.
 */
#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname)	\
	container_of(callback_timer, typeof(*(var)), timer_fieldname)
#endif

/*
 * timer_destroy_on_stack(): 6.16 ("treewide, timers: Rename
 * destroy_timer_on_stack() as timer_destroy_on_stack()", Ingo Molnar); the
 * old name is gone by 7.3.  It undoes timer_setup_on_stack() for
 * DEBUG_OBJECTS_TIMERS.
 */
#if KIT_BEFORE(6, 16, 0)
#define timer_destroy_on_stack(timer)	destroy_timer_on_stack(timer)
#endif

/*
 * hrtimer_setup(): 6.13 ("hrtimers: Introduce hrtimer_setup() to replace
 * hrtimer_init()", Nam Cao); hrtimer_init() is gone by 7.2.
 */
#if KIT_BEFORE(6, 13, 0)
static inline void
kit_hrtimer_setup(struct hrtimer *timer,
		  enum hrtimer_restart (*function)(struct hrtimer *),
		  clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}

#define hrtimer_setup kit_hrtimer_setup
#endif

/*
 * hrtimer_setup_on_stack(): 6.13, like hrtimer_setup() ("hrtimers:
 * Introduce hrtimer_setup_on_stack()", Nam Cao); hrtimer_init_on_stack()
 * is gone by 7.2.  An hrtimer on the stack must be set up with it (and
 * undone with destroy_hrtimer_on_stack()), or a kernel with
 * DEBUG_OBJECTS_TIMERS reports it.
 */
#if KIT_BEFORE(6, 13, 0)
static inline void
kit_hrtimer_setup_on_stack(struct hrtimer *timer,
			   enum hrtimer_restart (*function)(struct hrtimer *),
			   clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init_on_stack(timer, clock_id, mode);
	timer->function = function;
}

#define hrtimer_setup_on_stack kit_hrtimer_setup_on_stack
#endif

/*
 * class_create(name): 6.4 ("driver core: class: remove module * from
 * class_create()", Greg Kroah-Hartman).  Before that it was a macro taking
 * the owner module too; the static key is per call site, as in the
 * original.
 */
#if KIT_BEFORE(6, 4, 0)
#undef class_create
#define class_create(name)					\
({								\
	static struct lock_class_key __key;			\
								\
	__class_create(THIS_MODULE, name, &__key);		\
})
#endif

/*
 * devnode callbacks of struct class and struct usb_class_driver take a
 * const struct device * from 6.2 ("driver core: make struct class.devnode()
 * take a const *" and "USB: make devnode() callback in usb_class_driver
 * take a const *", Greg Kroah-Hartman).
 *
 * Almost every devnode callback only sets the node's mode, so
 * KIT_DEFINE_DEVNODE_MODE(prefix, mode) defines that callback as
 * prefix_devnode(), e.g.
 *
 *	KIT_DEFINE_DEVNODE_MODE(kitfoo, 0600);
 *	...
 *	.devnode = kitfoo_devnode,
 *
 * (0600 is what the kernel gives a node anyway; who else may use it is the
 * system's policy: a udev rule, not the driver's mode, should widen it.)
 * KIT_DEVNODE_CONST is there for a callback that does more.
 */
#if KIT_BEFORE(6, 2, 0)
#define KIT_DEVNODE_CONST
#else
#define KIT_DEVNODE_CONST const
#endif

#define KIT_DEFINE_DEVNODE_MODE(prefix, perm)				\
static char *prefix##_devnode(KIT_DEVNODE_CONST struct device *dev,	\
			      umode_t *mode)				\
{									\
	if (mode)							\
		*mode = (perm);						\
	return NULL;							\
}

#endif /* _KIT_COMPAT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * kitwdt - a software watchdog on a misc device, with the watchdog API
 *
 * Not the template for a new watchdog driver.  That one registers a struct
 * watchdog_device with the watchdog core (watchdog_register_device(); copy
 * drivers/watchdog/softdog.c), whose file operations are the core's: it
 * gets /dev/watchdogN, the ioctls, nowayout, magic close, open_timeout,
 * sysfs and the pretimeout governors, and has no read or write to convert.
 * This one writes that API by hand, as the older drivers in
 * drivers/watchdog/ do, for their .read/.write and its conversion: copy
 * its lifetime rules (below), not its structure.
 *
 * What this template teaches:
 * - the userspace API of include/uapi/linux/watchdog.h, as
 *   Documentation/watchdog/watchdog-api.rst describes it, written as plain
 *   file operations on a misc device (/dev/kitwdt, dynamic minor);
 * - a kernel timer shared by process context and its callback under one
 *   spinlock, re-armed for a pretimeout, stopped on close and on unload;
 * - a write that looks at every byte, for the magic close character 'V',
 *   a chunk at a time, and stops for a fatal signal;
 * - a module reference held while the watchdog runs, as softdog does, so
 *   that only a magic close or the expiry stops it: never a daemon that
 *   dies, nor rmmod (nowayout rules out the magic close too);
 * - poll reporting an event (the pretimeout) as EPOLLPRI.
 *
 * What userspace sees:
 * - open starts the watchdog; one opener at a time (-EBUSY).  Any write,
 *   WDIOC_KEEPALIVE and WDIOC_SETTIMEOUT ping it.  A write holding a 'V'
 *   arms magic close (not with nowayout); a write without one disarms it.
 *   Close after a 'V' stops the watchdog; any other close pings it and
 *   leaves it running, and the next open carries on with it.  While it
 *   runs, rmmod fails (-EWOULDBLOCK).
 * - read gives an int: the seconds left before the expiry, 0 when the
 *   watchdog is stopped.
 * - The pretimeout (WDIOC_SETPRETIMEOUT seconds before the expiry) logs a
 *   line and wakes poll, which reports EPOLLPRI until the next ping; one
 *   set when its moment has already passed comes at once.
 * - On expiry the watchdog stops, and with action=log prints a KERN_CRIT
 *   line: the module lives on, so userspace can tell.  From the first
 *   expiry on, WDIOC_GETSTATUS and WDIOC_GETBOOTSTATUS report
 *   WDIOF_CARDRESET (standing for the reset that action=log did not do,
 *   until the module is reloaded) and /sys/module/kitwdt/parameters/expiries
 *   counts the expiries (read only: setting it at load fails the load).
 *   action=panic and action=restart do what they say.
 *
 * This is the converted form, with .read_iter and .write_iter: put_iter()
 * in place of put_user(), copy_from_iter() in place of copy_from_user()
 * (which counts what it did copy, not what it didn't).  A readv or writev
 * is one call now, so the int may span iovecs, and one 'V' anywhere in a
 * writev arms magic close.  FMODE_NOWAIT lets RWF_NOWAIT and io_uring in.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/watchdog.h>	/* the ioctls, WATCHDOG_NOWAYOUT */

#include "iterkit.h"		/* put_iter(); compat.h */

/* The range that the old drivers' WDIOC_SETTIMEOUT accepts. */
#define KITWDT_MAX_TIMEOUT	3600	/* seconds */

/* A write is scanned through a stack buffer of this many bytes. */
#define KITWDT_SCAN_CHUNK	256

static unsigned int timeout = 30;
module_param(timeout, uint, 0444);
MODULE_PARM_DESC(timeout,
		 "Seconds from a ping to the expiry, 1..3600 (default 30)");

/* WATCHDOG_NOWAYOUT follows the kernel's CONFIG_WATCHDOG_NOWAYOUT. */
static bool nowayout = WATCHDOG_NOWAYOUT;
module_param(nowayout, bool, 0444);
MODULE_PARM_DESC(nowayout,
		 "Once started, the watchdog cannot be stopped (default="
		 __MODULE_STRING(WATCHDOG_NOWAYOUT) ")");

static char *action = "log";
module_param(action, charp, 0444);
MODULE_PARM_DESC(action, "On expiry: log, panic or restart (default log)");

/*
 * Written by the timer callback (WRITE_ONCE()), read through sysfs.  Only
 * the driver counts: a value given at load (expiries=1) would make
 * WDIOC_GETBOOTSTATUS report a reset that never happened, so setting it is
 * refused, and the load fails.
 */
static unsigned int expiries;

static int kitwdt_refuse_set(const char *val, const struct kernel_param *kp)
{
	return -EINVAL;
}

static const struct kernel_param_ops kitwdt_count_ops = {
	.set	= kitwdt_refuse_set,
	.get	= param_get_uint,
};

module_param_cb(expiries, &kitwdt_count_ops, &expiries, 0444);
MODULE_PARM_DESC(expiries, "Read only: expiries since the module was loaded");

enum kitwdt_action { KITWDT_LOG, KITWDT_PANIC, KITWDT_RESTART };

static const char * const kitwdt_actions[] = {
	[KITWDT_LOG]		= "log",
	[KITWDT_PANIC]		= "panic",
	[KITWDT_RESTART]	= "restart",
};

/* What WDIOC_GETSUPPORT tells: the options are what this driver can do. */
static const struct watchdog_info kitwdt_info = {
	.options	= WDIOF_SETTIMEOUT | WDIOF_MAGICCLOSE |
			  WDIOF_PRETIMEOUT | WDIOF_KEEPALIVEPING |
			  WDIOF_CARDRESET,
	.identity	= "kitwdt",
};

/*
 * One spinlock covers the state, because the timer callback (softirq
 * context) reads and changes it too.  Process context takes it with
 * spin_lock_bh(), so the callback can't interrupt a holder on the same CPU.
 * Nothing sleeps or touches user memory with it held: user copies happen
 * before or after.
 */
struct kitwdt {
	struct miscdevice	misc;		/* our /dev node */
	struct timer_list	timer;		/* pretimeout, then expiry */
	wait_queue_head_t	alarmq;		/* poll waits for an alarm */
	enum kitwdt_action	action;		/* what an expiry does */
	spinlock_t		lock;		/* guards all that follows */
	unsigned int		timeout;	/* seconds, ping to expiry */
	unsigned int		pretimeout;	/* s before expiry; 0: off */
	unsigned long		deadline;	/* jiffies of the expiry */
	bool			running;	/* counting down */
	bool			open;		/* a file has us open */
	bool			expect_close;	/* the last write had a 'V' */
	bool			pinged;		/* since WDIOC_GETSTATUS */
	bool			alarm;		/* pretimeout or expiry came */
};

static const struct file_operations kitwdt_fops;

static struct kitwdt kitwdt_dev = {
	.misc = {
		.minor	= MISC_DYNAMIC_MINOR,
		.name	= "kitwdt",
		.fops	= &kitwdt_fops,
		.mode	= 0600,		/* root's business */
	},
};

/* When the pretimeout is due, in jiffies (lock held). */
static unsigned long kitwdt_pretime(struct kitwdt *wdt)
{
	return wdt->deadline - wdt->pretimeout * HZ;
}

/*
 * The timer has one pending event at a time: the pretimeout while it is
 * set and not yet reported, else the expiry (lock held).  A pretimeout
 * whose moment has passed already (WDIOC_SETPRETIMEOUT late in a period)
 * is due now: the timer fires at once and raises the alarm.
 */
static void kitwdt_arm(struct kitwdt *wdt)
{
	unsigned long pre = kitwdt_pretime(wdt);

	if (!wdt->pretimeout || wdt->alarm)
		mod_timer(&wdt->timer, wdt->deadline);
	else if (time_before(jiffies, pre))
		mod_timer(&wdt->timer, pre);
	else
		mod_timer(&wdt->timer, jiffies);
}

/* Seconds left, rounded up: 0 once expired or stopped (lock held). */
static int kitwdt_timeleft(struct kitwdt *wdt)
{
	if (!wdt->running || time_after_eq(jiffies, wdt->deadline))
		return 0;
	return DIV_ROUND_UP(jiffies_to_msecs(wdt->deadline - jiffies),
			    MSEC_PER_SEC);
}

/* Push the deadline back; a stopped watchdog stays so (lock held). */
static void kitwdt_ping(struct kitwdt *wdt)
{
	if (!wdt->running)
		return;
	wdt->deadline = jiffies + wdt->timeout * HZ;
	wdt->pinged = true;
	wdt->alarm = false;
	kitwdt_arm(wdt);
}

/* Start counting down; a running watchdog carries on (lock held). */
static void kitwdt_start(struct kitwdt *wdt)
{
	if (wdt->running)
		return;
	/*
	 * The running watchdog holds a reference to this module, so that
	 * rmmod fails (-EWOULDBLOCK) even after the last close: unloading
	 * would stop the timer.  A stop or the expiry drops it.
	 * __module_get() is enough: the open file already pins the module.
	 */
	__module_get(THIS_MODULE);
	wdt->running = true;
	kitwdt_ping(wdt);
}

/* Stop counting down, unless nowayout forbids it (lock held). */
static int kitwdt_stop(struct kitwdt *wdt)
{
	if (!wdt->running)
		return 0;
	if (nowayout)
		return -EBUSY;
	wdt->running = false;
	/*
	 * timer_delete() is enough here: a callback that is already running
	 * waits for our lock and then finds the watchdog stopped.  (And
	 * timer_delete_sync() under a lock that the callback takes would
	 * deadlock.)  Only module exit must wait for the callback to finish.
	 */
	timer_delete(&wdt->timer);
	module_put(THIS_MODULE);	/* the file still pins us */
	return 0;
}

static void kitwdt_timer_fn(struct timer_list *t)
{
	struct kitwdt *wdt = timer_container_of(wdt, t, timer);
	unsigned int secs;

	spin_lock(&wdt->lock);
	if (!wdt->running) {		/* stopped while we waited */
		spin_unlock(&wdt->lock);
		return;
	}
	if (time_before(jiffies, wdt->deadline)) {
		/* The pretimeout, or a ping moved the deadline meanwhile. */
		if (wdt->pretimeout && !wdt->alarm &&
		    time_after_eq(jiffies, kitwdt_pretime(wdt))) {
			wdt->alarm = true;
			pr_crit("pretimeout: %d s left\n",
				kitwdt_timeleft(wdt));
			wake_up_interruptible(&wdt->alarmq);
		}
		kitwdt_arm(wdt);
		spin_unlock(&wdt->lock);
		return;
	}
	wdt->running = false;
	wdt->alarm = true;
	secs = wdt->timeout;
	WRITE_ONCE(expiries, expiries + 1);
	spin_unlock(&wdt->lock);
	wake_up_interruptible(&wdt->alarmq);

	switch (wdt->action) {
	case KITWDT_PANIC:
		panic(KBUILD_MODNAME ": watchdog expired, action=panic");
	case KITWDT_RESTART:
		pr_crit("expired: restarting the machine\n");
		emergency_restart();
		break;
	case KITWDT_LOG:
		pr_crit("expired: no ping for %u s (action=log)\n", secs);
		break;
	}
	/*
	 * The watchdog fired, and stopped: drop the reference that the start
	 * took.  This may let rmmod go ahead at once; module exit then waits
	 * in timer_shutdown_sync() for this function to return.
	 */
	module_put(THIS_MODULE);
}

/* LAB 2: RWF_NOWAIT ok: nothing here waits */
static int kitwdt_open(struct inode *inode, struct file *file)
{
	/* misc_open() left our struct miscdevice in private_data. */
	struct kitwdt *wdt = container_of(file->private_data,
					  struct kitwdt, misc);

	spin_lock_bh(&wdt->lock);
	if (wdt->open) {
		spin_unlock_bh(&wdt->lock);
		return -EBUSY;
	}
	wdt->open = true;
	kitwdt_start(wdt);
	spin_unlock_bh(&wdt->lock);

	file->private_data = wdt;
	/* Nothing here waits, so IOCB_NOWAIT needs no code: let it come. */
	file->f_mode |= FMODE_NOWAIT;
	return stream_open(inode, file);
}

static int kitwdt_release(struct inode *inode, struct file *file)
{
	struct kitwdt *wdt = file->private_data;

	spin_lock_bh(&wdt->lock);
	if (wdt->expect_close) {	/* never set with nowayout */
		kitwdt_stop(wdt);
	} else if (wdt->running) {
		/* As watchdog_dev: a full timeout for a daemon to restart. */
		kitwdt_ping(wdt);
		pr_crit("unexpected close: still running, %d s left\n",
			kitwdt_timeleft(wdt));
	}
	wdt->expect_close = false;
	wdt->open = false;
	spin_unlock_bh(&wdt->lock);
	return 0;
}

/* LAB 2: the read: one int, in one call */
/* A read gives the seconds left, as an int; it never waits. */
static ssize_t kitwdt_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct kitwdt *wdt = file->private_data;
	int left;

	if (iov_iter_count(to) < sizeof(left))
		return -EINVAL;
	spin_lock_bh(&wdt->lock);
	left = kitwdt_timeleft(wdt);
	spin_unlock_bh(&wdt->lock);
	if (put_iter(left, to))
		return -EFAULT;
	return sizeof(left);
}

/* LAB 2: the write: one call per writev */
/*
 * Any write pings.  The 'V' may be anywhere in the data, so all of it is
 * scanned; the whole scan comes first, so that a bad pointer fails the
 * write before it has changed anything.  (Unlike watchdog_dev, which
 * disarms magic close before its scan: here an error changes nothing.)
 * A byte at a time, get_iter() is an iterator step per byte, for a write
 * that may be 2 GB long: copy a chunk at a time instead, and look with
 * memchr().  get_iter() is right for one value of a fixed size, as
 * put_iter() is in read.
 */
static ssize_t kitwdt_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct kitwdt *wdt = file->private_data;
	size_t count = iov_iter_count(from);
	char scan[KITWDT_SCAN_CHUNK];
	bool magic = false;
	size_t done, n;

	if (!count)
		return 0;		/* no data, no ping */
	for (done = 0; done < count; done += n) {
		n = min(count - done, sizeof(scan));
		if (copy_from_iter(scan, n, from) != n)
			return -EFAULT;
		if (memchr(scan, 'V', n))
			magic = true;
		/* A long write must not hold up kill, nor the CPU. */
		if (fatal_signal_pending(current))
			return -EINTR;	/* the caller is dying: unseen */
		cond_resched();
	}

	spin_lock_bh(&wdt->lock);
	/* The last write decides: a 'V' five minutes ago doesn't count. */
	wdt->expect_close = magic && !nowayout;
	kitwdt_ping(wdt);
	spin_unlock_bh(&wdt->lock);
	return count;
}

/* LAB END */

/*
 * Reads and writes never wait, so the device is always readable and
 * writable; EPOLLPRI means the pretimeout (or the expiry) has come.
 */
static __poll_t kitwdt_poll(struct file *file, poll_table *wait)
{
	struct kitwdt *wdt = file->private_data;
	__poll_t mask = EPOLLIN | EPOLLRDNORM | EPOLLOUT | EPOLLWRNORM;

	poll_wait(file, &wdt->alarmq, wait);
	spin_lock_bh(&wdt->lock);
	if (wdt->alarm)
		mask |= EPOLLPRI;
	spin_unlock_bh(&wdt->lock);
	return mask;
}

/* The flags for WDIOC_GETSTATUS (lock held). */
static int kitwdt_status(struct kitwdt *wdt)
{
	int status = 0;

	if (READ_ONCE(expiries))
		status |= WDIOF_CARDRESET;
	if (wdt->expect_close)
		status |= WDIOF_MAGICCLOSE;
	if (wdt->pinged)
		status |= WDIOF_KEEPALIVEPING;
	return status;
}

static int kitwdt_setoptions(struct kitwdt *wdt, int options)
{
	int ret = 0;

	if (!options || options & ~(WDIOS_DISABLECARD | WDIOS_ENABLECARD))
		return -EINVAL;
	spin_lock_bh(&wdt->lock);
	if (options & WDIOS_DISABLECARD)
		ret = kitwdt_stop(wdt);
	if (!ret && (options & WDIOS_ENABLECARD))
		kitwdt_start(wdt);
	spin_unlock_bh(&wdt->lock);
	return ret;
}

/*
 * Every command that changes something reads its argument first and
 * changes nothing on a fault; WDIOC_SETTIMEOUT writes its answer back
 * before it takes effect, for the same reason.
 */
static long kitwdt_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct kitwdt *wdt = file->private_data;
	int __user *p = (int __user *)arg;
	int val, ret = 0;

	switch (cmd) {
	case WDIOC_GETSUPPORT:
		if (copy_to_user(p, &kitwdt_info, sizeof(kitwdt_info)))
			return -EFAULT;
		return 0;
	case WDIOC_GETSTATUS:
		/*
		 * Test and clear in one go: a ping that comes while we copy
		 * out is for the next call to report.
		 */
		spin_lock_bh(&wdt->lock);
		val = kitwdt_status(wdt);
		wdt->pinged = false;
		spin_unlock_bh(&wdt->lock);
		if (put_user(val, p)) {
			/* Not reported after all: give the ping back. */
			if (val & WDIOF_KEEPALIVEPING) {
				spin_lock_bh(&wdt->lock);
				wdt->pinged = true;
				spin_unlock_bh(&wdt->lock);
			}
			return -EFAULT;
		}
		return 0;
	case WDIOC_GETBOOTSTATUS:
		return put_user(READ_ONCE(expiries) ? WDIOF_CARDRESET : 0, p);
	case WDIOC_SETOPTIONS:
		if (get_user(val, p))
			return -EFAULT;
		return kitwdt_setoptions(wdt, val);
	case WDIOC_KEEPALIVE:		/* the argument is ignored */
		spin_lock_bh(&wdt->lock);
		kitwdt_ping(wdt);
		spin_unlock_bh(&wdt->lock);
		return 0;
	case WDIOC_SETTIMEOUT:
		if (get_user(val, p))
			return -EFAULT;
		if (val < 1 || val > KITWDT_MAX_TIMEOUT)
			return -EINVAL;
		if (put_user(val, p))	/* the timeout now in effect */
			return -EFAULT;
		spin_lock_bh(&wdt->lock);
		wdt->timeout = val;
		/* A pretimeout that no longer fits goes, as in the core. */
		if (wdt->pretimeout >= wdt->timeout)
			wdt->pretimeout = 0;
		kitwdt_ping(wdt);
		spin_unlock_bh(&wdt->lock);
		return 0;
	case WDIOC_GETTIMEOUT:
		spin_lock_bh(&wdt->lock);
		val = wdt->timeout;
		spin_unlock_bh(&wdt->lock);
		return put_user(val, p);
	case WDIOC_SETPRETIMEOUT:	/* counts from the current deadline */
		if (get_user(val, p))
			return -EFAULT;
		spin_lock_bh(&wdt->lock);
		if (val < 0 || (val && val >= wdt->timeout)) {
			ret = -EINVAL;
		} else {
			wdt->pretimeout = val;
			if (wdt->running)
				kitwdt_arm(wdt);
		}
		spin_unlock_bh(&wdt->lock);
		return ret;
	case WDIOC_GETPRETIMEOUT:
		spin_lock_bh(&wdt->lock);
		val = wdt->pretimeout;
		spin_unlock_bh(&wdt->lock);
		return put_user(val, p);
	case WDIOC_GETTIMELEFT:
		spin_lock_bh(&wdt->lock);
		val = kitwdt_timeleft(wdt);
		spin_unlock_bh(&wdt->lock);
		return put_user(val, p);
	default:
		return -ENOTTY;
	}
}

/* No .llseek: stream_open() makes lseek, pread and pwrite fail (ESPIPE). */
static const struct file_operations kitwdt_fops = {
	.owner		= THIS_MODULE,	/* no rmmod while a file is open */
	.open		= kitwdt_open,
	.release	= kitwdt_release,
	/* LAB 2: read and write through iterators */
	.read_iter	= kitwdt_read_iter,
	.write_iter	= kitwdt_write_iter,
	/* LAB END */
	.poll		= kitwdt_poll,
	.unlocked_ioctl	= kitwdt_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,	/* arguments are pointers */
};

static int __init kitwdt_init(void)
{
	struct kitwdt *wdt = &kitwdt_dev;
	int ret;

	if (!timeout || timeout > KITWDT_MAX_TIMEOUT) {
		pr_err("timeout=%u: must be 1..%u seconds\n", timeout,
		       KITWDT_MAX_TIMEOUT);
		return -EINVAL;
	}
	ret = match_string(kitwdt_actions, ARRAY_SIZE(kitwdt_actions), action);
	if (ret < 0) {
		pr_err("action=%s: must be log, panic or restart\n", action);
		return -EINVAL;
	}
	wdt->action = ret;
	wdt->timeout = timeout;
	spin_lock_init(&wdt->lock);
	init_waitqueue_head(&wdt->alarmq);
	timer_setup(&wdt->timer, kitwdt_timer_fn, 0);

	ret = misc_register(&wdt->misc);
	if (ret)
		return ret;
	pr_info("timeout=%u s, nowayout=%d, action=%s\n", timeout, nowayout,
		kitwdt_actions[wdt->action]);
	return 0;
}

static void __exit kitwdt_exit(void)
{
	struct kitwdt *wdt = &kitwdt_dev;

	misc_deregister(&wdt->misc);
	/*
	 * No file is open here (.owner), nor is the watchdog running (it
	 * holds a reference): unloading is never a way to stop it.  But an
	 * expiry may still be on its way out of kitwdt_timer_fn(), past its
	 * module_put(): timer_shutdown_sync() waits for it to return.
	 */
	timer_shutdown_sync(&wdt->timer);
}

module_init(kitwdt_init);
module_exit(kitwdt_exit);

MODULE_DESCRIPTION("iterkit: a software watchdog with the watchdog API");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * kitskel - a USB driver for a device with a bulk-in and a bulk-out endpoint
 *
 * What this template teaches, in the shape of the kernel's own
 * drivers/usb/usb-skeleton.c (start there, then read this):
 * - binding to an interface by id table, finding its endpoints, and getting
 *   a character device (/dev/skel0, root's alone: see skel_class) from the
 *   USB core's class driver;
 * - the lifetime of a device that can vanish at any moment: a kref shared by
 *   the binding and the open files, an io_mutex that orders I/O against
 *   disconnect(), and open files that keep working, with -ENODEV, after it;
 * - reads through one bulk-in URB with a buffer in between, blocking or not,
 *   running while a file is open;
 * - writes through a URB each, at most SKEL_WRITES_IN_FLIGHT in flight;
 * - errors that reach their owner: a failed read URB's, the next read; a
 *   failed write URB's, the next call on the file that wrote; a reset's,
 *   the next call on every file that was open across it; and a stalled
 *   endpoint is cleared (usb_clear_halt(), from a work item), so that it
 *   fails one call only;
 * - poll(), which only reads the state and never sleeps, and every "not
 *   ready" it says ended by a wake-up: it leaves what it can't do at once,
 *   starting the read URB, to a work item;
 * - URBs drawn down for suspend, reset and disconnect.
 *
 * Where this driver departs from usb-skeleton.c a comment says so, and why:
 * a reader no longer blocks writers and disconnect while it waits; a read
 * URB is never shorter than a packet; a failed copy to the user loses no
 * data; one opener's close no longer kills another's read, nor its writes
 * (they are per open file), and only the last one stops the read URB;
 * errors are per file, and stalls are cleared; write buffers are plain
 * kmalloc() memory freed with their URB; there is a poll().
 *
 * To try it without hardware, guest/usb-loopback sets up dummy_hcd
 * and the Loopback gadget, which echoes whatever is written.
 *
 * This is the converted form: .read_iter/.write_iter (one call per readv or
 * writev), IOCB_NOWAIT honoured like O_NONBLOCK, FMODE_NOWAIT, .splice_read.
 */

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/usb.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "compat.h"		/* copy_splice_read */

/* Define these values to match your device. */
#define USB_SKEL_VENDOR_ID	0xfff0
#define USB_SKEL_PRODUCT_ID	0xfff0

/* The devices this driver binds to; others can be added through new_id. */
static const struct usb_device_id skel_table[] = {
	{ USB_DEVICE(USB_SKEL_VENDOR_ID, USB_SKEL_PRODUCT_ID) },
	{ }
};
MODULE_DEVICE_TABLE(usb, skel_table);

/*
 * Get a minor range for your devices from the USB maintainer.  (Kernels
 * built with CONFIG_USB_DYNAMIC_MINORS, as most are, ignore it.)
 */
#define USB_SKEL_MINOR_BASE	192

/*
 * The largest write that goes out as one URB.  usb-skeleton.c uses
 * PAGE_SIZE - 512, which is not a whole number of 1024-byte super-speed
 * packets: a long write would then reach the device as transfers that each
 * end in a short packet.  4 KiB is whole at every speed and still an
 * order-0 allocation.
 */
#define SKEL_MAX_TRANSFER	SZ_4K

/* At most this many write URBs in flight, so a writer can't eat all RAM. */
#define SKEL_WRITES_IN_FLIGHT	8

/* How long flush(), suspend and reset wait for writes before killing them. */
#define SKEL_DRAIN_TIMEOUT_MS	1000

/*
 * Locking, from the outside in:
 * - read_mutex: one reader at a time owns the bulk-in buffer and URB, and
 *   sleeps holding it while it waits for the device.  While the URB is in
 *   flight, only its completion handler writes bulk_in_filled.  Whoever
 *   lets it go wakes bulk_in_wait: a poller may be waiting for it.
 * - io_mutex: held around each URB submission and around setting
 *   ->disconnected, so that no URB is submitted after disconnect() killed
 *   them all (read and write also peek at the flag without it, to fail
 *   early), and around the list of open files, whose writes suspend, reset
 *   and disconnect() stop.  Also held from pre_reset() to post_reset(),
 *   and around clearing a halt, which stop writes meanwhile (io_stopped):
 *   writers wait on bulk_out_wait instead, as poll() says.  Nobody waits
 *   for data holding it, unlike in usb-skeleton.c, whose reader waits
 *   under io_mutex: there a writer (whose data may be what the reader
 *   waits for) and disconnect() wait for the reader.
 * - err_lock: a spinlock, for what the completion handlers write (the read
 *   URB's error, ongoing_read and bulk_in_filled; each file's write error;
 *   a halted endpoint), the rest of the read state that poll() reads,
 *   io_stopped, and each file's reset flag.
 */
struct usb_skel {
	struct usb_device	*udev;		/* the device, held until freed */
	struct usb_interface	*interface;	/* our interface, held likewise */
	struct kref		kref;		/* the binding and each open file */
	struct mutex		io_mutex;	/* URB submission vs disconnect */
	bool			disconnected;	/* disconnect() was called */
	spinlock_t		err_lock;	/* see above */
	struct list_head	files;		/* the open files' skel_file */
	bool			io_stopped;	/* writes stop: a reset, a halt */

	/* Reading: one URB, one buffer of a packet's size. */
	struct mutex		read_mutex;	/* one reader at a time */
	struct urb		*bulk_in_urb;	/* the URB to read data with */
	u8			*bulk_in_buffer; /* the buffer it reads into */
	size_t			bulk_in_size;	/* its size: the max packet */
	size_t			bulk_in_filled;	/* bytes in the buffer */
	size_t			bulk_in_copied;	/* of which already read */
	bool			ongoing_read;	/* bulk_in_urb is in flight */
	int			read_error;	/* it failed: for the next read */
	bool			bulk_in_halted;	/* it stalled: halt_work clears */
	wait_queue_head_t	bulk_in_wait;	/* readers wait for it here */
	struct work_struct	read_work;	/* starts it for poll() */
	u8			bulk_in_ep;	/* the bulk-in endpoint's number */

	/* Writing: a URB per write, SKEL_WRITES_IN_FLIGHT at most. */
	atomic_t		writes_in_flight; /* their number */
	bool			bulk_out_halted; /* one stalled: halt_work clears */
	wait_queue_head_t	bulk_out_wait;	/* writers wait for room here */
	u8			bulk_out_ep;	/* the bulk-out endpoint's number */

	struct work_struct	halt_work;	/* clears a halted endpoint */
};

#define to_skel_dev(d) container_of(d, struct usb_skel, kref)

/*
 * An open file.  Its writes are its own: close() waits for them and reports
 * their errors, and nobody else's.  usb-skeleton.c keeps the anchor and the
 * error in the device, so any opener's close kills every opener's writes
 * and takes their error.  What dup() and fork() share is one open file,
 * with its writes: closing any copy, a forked child's exit included, waits
 * for them (and kills them after SKEL_DRAIN_TIMEOUT_MS).
 */
struct skel_file {
	struct usb_skel		*dev;		/* holds a kref */
	struct list_head	node;		/* in dev->files, under io_mutex */
	struct usb_anchor	submitted;	/* its write URBs in flight */
	int			errors;		/* its last failed write URB */
	bool			reset;		/* the device was reset since */
};

static struct usb_driver skel_driver;

static void skel_delete(struct kref *kref)
{
	struct usb_skel *dev = to_skel_dev(kref);

	usb_free_urb(dev->bulk_in_urb);
	usb_put_intf(dev->interface);
	usb_put_dev(dev->udev);
	kfree(dev->bulk_in_buffer);
	kfree(dev);
}

/*
 * Take a mutex, or only try it (@trylock) for a caller that may not wait
 * for it: -EAGAIN then.  A signal ends the wait: -ERESTARTSYS.
 */
static int skel_lock(struct mutex *lock, bool trylock)
{
	if (trylock)
		return mutex_trylock(lock) ? 0 : -EAGAIN;
	if (mutex_lock_interruptible(lock))
		return -ERESTARTSYS;
	return 0;
}

/*
 * Report a failed URB's error once, then forget it: at once, whatever the
 * flags (a caller who may not wait must not hear -EAGAIN while poll() says
 * ready).  A stall is worth telling apart as -EPIPE; the rest is -EIO.
 */
static int skel_take_error(struct usb_skel *dev, int *errors)
{
	int err;

	spin_lock_irq(&dev->err_lock);
	err = *errors;
	*errors = 0;
	spin_unlock_irq(&dev->err_lock);
	if (!err)
		return 0;
	return err == -EPIPE ? -EPIPE : -EIO;
}

/* -EPIPE once if the device was reset since the file's last call. */
static int skel_take_reset(struct skel_file *sf)
{
	bool reset;

	spin_lock_irq(&sf->dev->err_lock);
	reset = sf->reset;
	sf->reset = false;
	spin_unlock_irq(&sf->dev->err_lock);
	return reset ? -EPIPE : 0;
}

/* Called in process context: usb_clear_halt() is a control transfer. */
static void skel_clear_halt(struct usb_skel *dev, unsigned int pipe)
{
	int rv;

	lockdep_assert_held(&dev->io_mutex);	/* not during a reset */
	if (dev->disconnected)
		return;
	rv = usb_clear_halt(dev->udev, pipe);
	if (rv)
		dev_err_ratelimited(&dev->interface->dev,
				    "clearing a halt: %d\n", rv);
}

/*
 * A stalled endpoint (-EPIPE) stays halted, failing every transfer, until
 * the host clears it; usb-skeleton.c never does.  The completion handler
 * that sees the stall can't clear it (usb_clear_halt() sleeps), so it
 * leaves it to this work item, as usbnet does.  Meanwhile the calls that
 * would use the endpoint wait, or say -EAGAIN, and poll() says "not ready";
 * so do writes, which would wait for io_mutex, held here (io_stopped).  The
 * end of this work wakes them all.  A halt it could not clear is forgotten
 * too: the next transfer stalls again, and comes back here.
 */
static void skel_halt_work(struct work_struct *work)
{
	struct usb_skel *dev = container_of(work, struct usb_skel, halt_work);
	struct skel_file *sf;
	bool in, out;

	mutex_lock(&dev->io_mutex);
	spin_lock_irq(&dev->err_lock);
	in = dev->bulk_in_halted;
	out = dev->bulk_out_halted;
	spin_unlock_irq(&dev->err_lock);
	if (out) {
		/*
		 * The USB core wants the writes queued behind the stall gone
		 * first: each leaves an error for its file.
		 */
		list_for_each_entry(sf, &dev->files, node)
			usb_kill_anchored_urbs(&sf->submitted);
		skel_clear_halt(dev, usb_sndbulkpipe(dev->udev,
						     dev->bulk_out_ep));
	}
	/* The read URB is idle: nobody starts it while its endpoint halts. */
	if (in)
		skel_clear_halt(dev, usb_rcvbulkpipe(dev->udev,
						     dev->bulk_in_ep));
	spin_lock_irq(&dev->err_lock);
	if (in)
		dev->bulk_in_halted = false;
	if (out)
		dev->bulk_out_halted = false;
	/* A stall since our look queued us again: writes wait for that run. */
	dev->io_stopped = dev->bulk_in_halted || dev->bulk_out_halted;
	spin_unlock_irq(&dev->err_lock);
	mutex_unlock(&dev->io_mutex);
	/* The reference skel_queue_halt_work() took for us. */
	usb_autopm_put_interface(dev->interface);
	wake_up_interruptible(&dev->bulk_in_wait);
	wake_up_interruptible(&dev->bulk_out_wait);
}

/*
 * From a completion handler that saw a stall, under err_lock.  Writes stop
 * until skel_halt_work() ends.  The work holds the device awake from now
 * on (the last file may close first) and lets it go; disconnect() drops
 * the reference for a work it cancels.  (Taken before the work is queued,
 * which may run at once, and dropped if it was queued already.)
 */
static void skel_queue_halt_work(struct usb_skel *dev)
{
	lockdep_assert_held(&dev->err_lock);
	dev->io_stopped = true;
	usb_autopm_get_interface_no_resume(dev->interface);
	if (!schedule_work(&dev->halt_work))
		usb_autopm_put_interface_no_suspend(dev->interface);
}

/* Unlinked (-ENOENT, -ECONNRESET) or device gone: nothing worth logging. */
static bool skel_status_expected(int status)
{
	return status == -ENOENT || status == -ECONNRESET ||
	       status == -ESHUTDOWN;
}

/*
 * Give writes in flight time to reach the device, then kill those that
 * don't; each killed write leaves an error, since its data is lost.
 */
static void skel_drain_writes(struct usb_anchor *submitted)
{
	if (!usb_wait_anchor_empty_timeout(submitted, SKEL_DRAIN_TIMEOUT_MS))
		usb_kill_anchored_urbs(submitted);
}

/* Stop all I/O, every file's: for suspend and reset. */
static void skel_draw_down(struct usb_skel *dev)
{
	struct skel_file *sf;

	lockdep_assert_held(&dev->io_mutex);	/* for the list of files */
	list_for_each_entry(sf, &dev->files, node)
		skel_drain_writes(&sf->submitted);
	usb_kill_urb(dev->bulk_in_urb);
}

static int skel_open(struct inode *inode, struct file *file)
{
	struct usb_interface *interface;
	struct skel_file *sf;
	struct usb_skel *dev;
	int retval;

	/* The USB core holds its minor lock: disconnect() waits for us. */
	interface = usb_find_interface(&skel_driver, iminor(inode));
	if (!interface)
		return -ENODEV;
	dev = usb_get_intfdata(interface);
	if (!dev)
		return -ENODEV;

	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	init_usb_anchor(&sf->submitted);

	/* Wake the device up, and keep it awake while the file is open. */
	retval = usb_autopm_get_interface(interface);
	if (retval)
		goto error_free;

	/*
	 * A reset holds io_mutex from pre_reset() to post_reset(), while it
	 * drains every file's writes: let a signal end the wait for it.
	 */
	retval = skel_lock(&dev->io_mutex, false);
	if (retval)
		goto error_autopm;
	kref_get(&dev->kref);
	sf->dev = dev;
	list_add(&sf->node, &dev->files);
	mutex_unlock(&dev->io_mutex);
	file->private_data = sf;
	/* Let preadv2(RWF_NOWAIT) and io_uring reach us with IOCB_NOWAIT. */
	file->f_mode |= FMODE_NOWAIT;
	/* A pipe to the device: no file position, no pread/pwrite, no lseek. */
	return stream_open(inode, file);

error_autopm:
	usb_autopm_put_interface(interface);
error_free:
	kfree(sf);
	return retval;
}

/*
 * The last file to close stops the read URB and drops what it brought in,
 * and its error: they belong to the files that were open, and the next
 * opener, maybe much later, starts afresh.  (What the device still holds
 * it sends again to the next read.)  usb-skeleton.c leaves the URB running
 * after the last close, for the next opener to find.
 */
static int skel_release(struct inode *inode, struct file *file)
{
	struct skel_file *sf = file->private_data;
	struct usb_skel *dev = sf->dev;

	mutex_lock(&dev->io_mutex);
	/*
	 * flush() waited for them, unless io_uring wrote after the close():
	 * kill them while disconnect(), which kills the writes of the files
	 * on the list, would still find them.
	 */
	usb_kill_anchored_urbs(&sf->submitted);
	list_del(&sf->node);
	if (list_empty(&dev->files)) {
		/* No reader can be in read() or poll(): no file is open. */
		usb_kill_urb(dev->bulk_in_urb);
		spin_lock_irq(&dev->err_lock);
		dev->bulk_in_filled = 0;
		dev->bulk_in_copied = 0;
		dev->read_error = 0;
		spin_unlock_irq(&dev->err_lock);
	}
	mutex_unlock(&dev->io_mutex);
	kfree(sf);

	usb_autopm_put_interface(dev->interface);
	kref_put(&dev->kref, skel_delete);
	return 0;
}

/*
 * Called at each close(): wait for this file's writes in flight, and report
 * a reset, or any error they met.  usb-skeleton.c also kills the read URB
 * here, which ends the read another process (sharing the device) is
 * blocked in with -EIO; this driver leaves it running, and what it reads
 * stays in the buffer (until the last close).
 */
static int skel_flush(struct file *file, fl_owner_t id)
{
	struct skel_file *sf = file->private_data;
	int rv;

	skel_drain_writes(&sf->submitted);
	rv = skel_take_reset(sf);
	if (!rv)
		rv = skel_take_error(sf->dev, &sf->errors);
	return rv;
}

static void skel_read_bulk_callback(struct urb *urb)
{
	struct usb_skel *dev = urb->context;
	int status = urb->status;
	unsigned long flags;

	if (status && !skel_status_expected(status))
		dev_err_ratelimited(&dev->interface->dev,
				    "read bulk status %d\n", status);

	spin_lock_irqsave(&dev->err_lock, flags);
	/*
	 * Unlinking the URB (suspend, reset, the last close) is no error, and
	 * whatever it brought in before that is kept for the next read.  An
	 * error is the readers' alone: writers don't hear of it.
	 */
	if (status && status != -ENOENT && status != -ECONNRESET)
		dev->read_error = status;
	if (status == -EPIPE) {
		dev->bulk_in_halted = true;
		skel_queue_halt_work(dev);
	}
	dev->bulk_in_filled = urb->actual_length;
	dev->ongoing_read = false;
	spin_unlock_irqrestore(&dev->err_lock, flags);

	wake_up_interruptible(&dev->bulk_in_wait);
}

/*
 * Start the read URB.  Called with read_mutex held, the URB idle and its
 * endpoint not halted.  @trylock: the caller may not wait for io_mutex (a
 * non-blocking read): -EAGAIN if it is taken (a reset holds it
 * throughout); the caller's end wakes the pollers, and skel_read_work()
 * starts it for them.
 *
 * The URB always asks for the whole buffer, one max-size packet, whatever
 * the caller's count: a device that sends a packet bigger than the URB's
 * buffer causes an overflow (-EOVERFLOW) and the packet is lost, which is
 * what usb-skeleton.c's min(bulk_in_size, count) does to a short read.  Nor
 * is the buffer bigger than a packet: a bulk URB completes only when full or
 * at a short packet, so a bigger one could sit on data the device has sent.
 * A zero-length packet completes it empty: the read waits on, and starts it
 * again, so that read() never returns 0, which would mean end of file.
 */
static int skel_start_read(struct usb_skel *dev, bool trylock)
{
	int rv;

	rv = skel_lock(&dev->io_mutex, trylock);
	if (rv)
		return rv;
	if (dev->disconnected) {
		rv = -ENODEV;
		goto out;
	}
	/* The last close stopped it: a late skel_read_work() leaves it so. */
	if (list_empty(&dev->files))
		goto out;

	usb_fill_bulk_urb(dev->bulk_in_urb, dev->udev,
			  usb_rcvbulkpipe(dev->udev, dev->bulk_in_ep),
			  dev->bulk_in_buffer, dev->bulk_in_size,
			  skel_read_bulk_callback, dev);
	spin_lock_irq(&dev->err_lock);
	dev->bulk_in_filled = 0;
	dev->bulk_in_copied = 0;
	dev->ongoing_read = true;
	spin_unlock_irq(&dev->err_lock);

	/*
	 * GFP_KERNEL may sleep in reclaim, under IOCB_NOWAIT too: what a
	 * caller who may not wait is spared is a wait for the device or
	 * for a lock, not for memory.
	 */
	rv = usb_submit_urb(dev->bulk_in_urb, GFP_KERNEL);
	if (rv) {
		dev_err_ratelimited(&dev->interface->dev,
				    "submitting read URB: %d\n", rv);
		spin_lock_irq(&dev->err_lock);
		dev->ongoing_read = false;
		spin_unlock_irq(&dev->err_lock);
		rv = rv == -ENOMEM ? rv : -EIO;
	}
out:
	mutex_unlock(&dev->io_mutex);
	return rv;
}

/*
 * Whether a reader has something to do: the read URB is idle, and its
 * endpoint not halted, or the stall not yet reported.
 */
static bool skel_read_idle(struct usb_skel *dev)
{
	bool idle;

	spin_lock_irq(&dev->err_lock);
	idle = !dev->ongoing_read && (!dev->bulk_in_halted || dev->read_error);
	spin_unlock_irq(&dev->err_lock);
	return idle;
}

/* Whether the read URB may start: idle, empty, no error.  Under err_lock. */
static bool skel_read_startable(struct usb_skel *dev)
{
	lockdep_assert_held(&dev->err_lock);
	return !dev->ongoing_read && !dev->bulk_in_halted && !dev->read_error &&
	       dev->bulk_in_copied == dev->bulk_in_filled;
}

/*
 * Wait until the buffer holds unread data, starting the read URB as
 * needed.  Called with read_mutex held.  Returns the number of bytes
 * waiting, or an error.  Data the device sent is handed out before the
 * error of a URB that failed after it; the error is reported once, at once
 * (a stall's too: skel_halt_work() clears it meanwhile, and the next read
 * waits for that).  @nonblock: don't wait for data, nor for io_mutex.
 */
static ssize_t skel_wait_data(struct usb_skel *dev, bool nonblock)
{
	int rv;

	for (;;) {
		if (!skel_read_idle(dev)) {
			/*
			 * -EAGAIN until the URB's completion, or the end of
			 * skel_halt_work(), wakes bulk_in_wait.
			 */
			if (nonblock)
				return -EAGAIN;
			/* The device may never answer: wait interruptibly. */
			if (wait_event_interruptible(dev->bulk_in_wait,
						     skel_read_idle(dev)))
				return -ERESTARTSYS;
			continue;
		}

		if (dev->bulk_in_copied < dev->bulk_in_filled)
			return dev->bulk_in_filled - dev->bulk_in_copied;

		rv = skel_take_error(dev, &dev->read_error);
		if (rv)
			return rv;
		rv = skel_start_read(dev, nonblock);
		if (rv)
			return rv;
	}
}

/*
 * Start the read URB for poll(), which may not wait for the locks to do
 * it (skel_poll_in()).  Its end wakes the pollers: the URB's completion,
 * or the wake-up here, after which they find the error, if it could not
 * start.  A reader who holds read_mutex owns the URB: its end wakes the
 * pollers too, and one that still finds the URB idle queues this again.
 */
static void skel_read_work(struct work_struct *work)
{
	struct usb_skel *dev = container_of(work, struct usb_skel, read_work);
	bool start;
	int rv = 0;

	if (!mutex_trylock(&dev->read_mutex))
		return;
	spin_lock_irq(&dev->err_lock);
	start = skel_read_startable(dev);
	spin_unlock_irq(&dev->err_lock);
	if (start)
		rv = skel_start_read(dev, false);
	if (rv && rv != -ENODEV) {
		/* For the next read to report (as -EIO). */
		spin_lock_irq(&dev->err_lock);
		dev->read_error = rv;
		spin_unlock_irq(&dev->err_lock);
	}
	mutex_unlock(&dev->read_mutex);
	wake_up_interruptible(&dev->bulk_in_wait);
}

/* LAB 3: the same read as a .read_iter, into any iterator; IOCB_NOWAIT too */
/*
 * A read returns what one URB brought in (at most a packet), without
 * waiting for more; when it empties the buffer and the caller wanted more,
 * it starts the next URB so that the device can go on sending meanwhile.
 */
static ssize_t skel_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct file *file = iocb->ki_filp;
	struct skel_file *sf = file->private_data;
	struct usb_skel *dev = sf->dev;
	bool nonblock = (file->f_flags & O_NONBLOCK) ||
			(iocb->ki_flags & IOCB_NOWAIT);
	size_t count = iov_iter_count(to);
	size_t available, chunk;
	ssize_t rv;

	if (!count)
		return 0;
	/* A quick check; the one that counts is under io_mutex. */
	if (READ_ONCE(dev->disconnected))
		return -ENODEV;
	rv = skel_take_reset(sf);
	if (rv)
		return rv;

	/*
	 * Held while waiting for the device, for as long as that takes: a
	 * non-blocking read only tries it, as a tty's read does its
	 * atomic_read_lock (-EAGAIN until its holder's end wakes us).
	 */
	rv = skel_lock(&dev->read_mutex, nonblock);
	if (rv)
		return rv;
	rv = skel_wait_data(dev, nonblock);
	if (rv <= 0)
		goto out;

	/*
	 * Data leaves the buffer only once it has reached the caller.
	 * usb-skeleton.c moves past it even when copy_to_user() fails,
	 * losing it.
	 */
	available = rv;
	chunk = min(available, count);
	chunk = copy_to_iter(dev->bulk_in_buffer + dev->bulk_in_copied, chunk,
			     to);
	if (!chunk) {
		rv = -EFAULT;
		goto out;
	}
	spin_lock_irq(&dev->err_lock);
	dev->bulk_in_copied += chunk;
	spin_unlock_irq(&dev->err_lock);
	rv = chunk;

	/* An error here shows up on the next read, which tries again. */
	if (chunk == available && available < count)
		skel_start_read(dev, nonblock);
out:
	mutex_unlock(&dev->read_mutex);
	/* Pollers look again: none saw data while we held read_mutex. */
	wake_up_interruptible(&dev->bulk_in_wait);
	return rv;
}

/* LAB END */

/*
 * Whether writes may go: bulk-out is not halted, and I/O is not stopped (a
 * reset, or skel_halt_work(), holds io_mutex, which a write would wait for
 * as long).  poll() and the write both ask, so that they agree.
 */
static bool skel_writable(struct usb_skel *dev)
{
	return !READ_ONCE(dev->bulk_out_halted) && !READ_ONCE(dev->io_stopped);
}

/*
 * A write slot, one of SKEL_WRITES_IN_FLIGHT, or false if none is free or
 * writes may not go.  (A write that stalls meanwhile finds this write
 * queued behind it: skel_halt_work() kills it, with an error for its file.)
 */
static bool skel_get_write_slot(struct usb_skel *dev)
{
	if (!skel_writable(dev))
		return false;
	return atomic_add_unless(&dev->writes_in_flight, 1,
				 SKEL_WRITES_IN_FLIGHT);
}

static void skel_put_write_slot(struct usb_skel *dev)
{
	atomic_dec(&dev->writes_in_flight);
	wake_up_interruptible(&dev->bulk_out_wait);
}

/*
 * The URB and its buffer (URB_FREE_BUFFER) are freed by the USB core when
 * this returns.  usb-skeleton.c uses usb_alloc_coherent() buffers and frees
 * them here; coherent memory is scarce on some platforms, and plain memory
 * is what most drivers use: the host controller driver maps it for DMA.
 */
static void skel_write_bulk_callback(struct urb *urb)
{
	struct skel_file *sf = urb->context;
	struct usb_skel *dev = sf->dev;
	int status = urb->status;
	unsigned long flags;

	if (status) {
		if (!skel_status_expected(status))
			dev_err_ratelimited(&dev->interface->dev,
					    "write bulk status %d\n", status);
		spin_lock_irqsave(&dev->err_lock, flags);
		sf->errors = status;
		if (status == -EPIPE) {
			dev->bulk_out_halted = true;
			skel_queue_halt_work(dev);
		}
		spin_unlock_irqrestore(&dev->err_lock, flags);
	}
	skel_put_write_slot(dev);
}

/*
 * A write sends up to SKEL_MAX_TRANSFER bytes as one URB and returns
 * without waiting for it: an error shows up on a later call, or at close.
 * It either takes all those bytes or, with -EFAULT, none.
 *
 * No zero-length packet follows a write that is a whole number of packets
 * (512 or 4096 bytes, say): the device sees where such a transfer ends only
 * if its protocol tells it (a length in a header, or buffers of exactly one
 * packet, as the Loopback gadget has).  A device that reads into bigger
 * buffers and waits for a short packet to end a transfer needs one: set
 * URB_ZERO_PACKET in the URB's transfer_flags.
 */
static ssize_t skel_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct skel_file *sf = file->private_data;
	struct usb_skel *dev = sf->dev;
	bool nowait = iocb->ki_flags & IOCB_NOWAIT;
	bool nonblock = (file->f_flags & O_NONBLOCK) || nowait;
	size_t count = iov_iter_count(from);
	size_t writesize = min_t(size_t, count, SKEL_MAX_TRANSFER);
	struct urb *urb;
	u8 *buf;
	int rv;

	if (!count)
		return 0;
	/* A quick check; the one that counts is under io_mutex. */
	if (READ_ONCE(dev->disconnected))
		return -ENODEV;

	/* A reset first, then this file's failed write. */
	rv = skel_take_reset(sf);
	if (!rv)
		rv = skel_take_error(dev, &sf->errors);
	if (rv)
		return rv;

	/*
	 * -EAGAIN until a write's completion frees a slot, or the end of
	 * skel_halt_work() or of a reset (skel_post_reset()) lets writes go:
	 * each wakes bulk_out_wait.
	 */
	if (!skel_get_write_slot(dev)) {
		if (nonblock)
			return -EAGAIN;
		if (wait_event_interruptible(dev->bulk_out_wait,
					     skel_get_write_slot(dev)))
			return -ERESTARTSYS;
	}

	urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!urb) {
		rv = -ENOMEM;
		goto error_put;
	}
	buf = kmalloc(writesize, GFP_KERNEL);
	if (!buf) {
		rv = -ENOMEM;
		goto error_free;
	}
	usb_fill_bulk_urb(urb, dev->udev,
			  usb_sndbulkpipe(dev->udev, dev->bulk_out_ep),
			  buf, writesize, skel_write_bulk_callback, sf);
	urb->transfer_flags |= URB_FREE_BUFFER;

	if (!copy_from_iter_full(buf, writesize, from)) {
		rv = -EFAULT;
		goto error_free;
	}

	/*
	 * No URB may be submitted once disconnect() has killed them all.
	 * Who holds io_mutex for long (a reset, skel_halt_work()) stops
	 * writes first (io_stopped), so here it is held only briefly, and a
	 * non-blocking writer waits for it too: poll() said there was room.
	 * IOCB_NOWAIT only tries it: -EAGAIN for that moment; the slot it
	 * gives back wakes bulk_out_wait, so a poller looks again.
	 */
	rv = skel_lock(&dev->io_mutex, nowait);
	if (rv)
		goto error_free;
	if (dev->disconnected) {
		rv = -ENODEV;
		goto error_unlock;
	}
	usb_anchor_urb(urb, &sf->submitted);
	rv = usb_submit_urb(urb, GFP_KERNEL);
	if (rv) {
		usb_unanchor_urb(urb);
		dev_err_ratelimited(&dev->interface->dev,
				    "submitting write URB: %d\n", rv);
		rv = rv == -ENOMEM ? rv : -EIO;
		goto error_unlock;
	}
	mutex_unlock(&dev->io_mutex);

	/* The USB core holds its own reference until the URB completes. */
	usb_free_urb(urb);
	return writesize;

error_unlock:
	mutex_unlock(&dev->io_mutex);
error_free:
	usb_free_urb(urb);
error_put:
	skel_put_write_slot(dev);
	return rv;
}

/*
 * Readable when the read URB is idle with data in its buffer or an error to
 * report, and no reader holds read_mutex: a read then won't wait.  Else
 * "not readable", which a wake-up ends: the end of the reader who holds
 * read_mutex (skel_read_iter()'s or skel_read_work()'s); the URB's
 * completion while it is in flight; the end of skel_halt_work() while its
 * endpoint is halted; and when it is idle and empty, the end of
 * skel_read_work(), queued here to start it.  (poll() can't wait for
 * io_mutex to start it itself, nor give up when it is taken: its holders
 * needn't wake anyone.)
 */
static __poll_t skel_poll_in(struct usb_skel *dev)
{
	__poll_t mask = 0;

	/* A non-blocking read would say -EAGAIN, only trying read_mutex. */
	if (mutex_is_locked(&dev->read_mutex))
		return 0;
	spin_lock_irq(&dev->err_lock);
	if (!dev->ongoing_read &&
	    (dev->bulk_in_copied < dev->bulk_in_filled || dev->read_error))
		mask = EPOLLIN | EPOLLRDNORM;
	/* Not once disconnect() has cancelled it: it sets the flag here. */
	else if (skel_read_startable(dev) && !dev->disconnected)
		schedule_work(&dev->read_work);
	spin_unlock_irq(&dev->err_lock);
	return mask;
}

/*
 * poll() only reads the state, and never sleeps; each "not ready" it says
 * is ended by a wake-up (see skel_poll_in()).  Writable while a write slot
 * is free (counted, not taken) and writes may go (skel_writable()): else a
 * write's completion, or the end of skel_halt_work() or of a reset, wakes
 * us.  A reset not yet reported to this file: EPOLLERR (the next call says
 * -EPIPE).  Gone: EPOLLERR | EPOLLHUP.
 */
static __poll_t skel_poll(struct file *file, poll_table *wait)
{
	struct skel_file *sf = file->private_data;
	struct usb_skel *dev = sf->dev;
	__poll_t mask = 0;

	poll_wait(file, &dev->bulk_in_wait, wait);
	poll_wait(file, &dev->bulk_out_wait, wait);
	if (READ_ONCE(dev->disconnected))
		return EPOLLERR | EPOLLHUP;

	if (READ_ONCE(sf->reset))
		mask |= EPOLLERR;
	if (poll_requested_events(wait) & (EPOLLIN | EPOLLRDNORM))
		mask |= skel_poll_in(dev);
	if (skel_writable(dev) &&
	    atomic_read(&dev->writes_in_flight) < SKEL_WRITES_IN_FLIGHT)
		mask |= EPOLLOUT | EPOLLWRNORM;
	return mask;
}

static const struct file_operations skel_fops = {
	.owner		= THIS_MODULE,	/* no rmmod while a file is open */
	.open		= skel_open,
	.release	= skel_release,
	.flush		= skel_flush,
	.poll		= skel_poll,
	/* LAB 3: read through an iterator; splice from it too */
	.read_iter	= skel_read_iter,
	.splice_read	= copy_splice_read,
	/* LAB END */
	.write_iter	= skel_write_iter,
};

/*
 * The USB core gives us a minor and a node, /dev/skel0, skel1, ..., whose
 * opens it routes to skel_fops.  With no .devnode to set its mode, the node
 * is 0600, root's alone: who else may use a device is the system's policy,
 * not the driver's, and a udev rule says it, e.g.
 *
 *	SUBSYSTEM=="usbmisc", KERNEL=="skel[0-9]*", GROUP="plugdev", MODE="0660"
 */
static struct usb_class_driver skel_class = {
	.name		= "skel%d",
	.fops		= &skel_fops,
	.minor_base	= USB_SKEL_MINOR_BASE,
};

static int skel_probe(struct usb_interface *interface,
		      const struct usb_device_id *id)
{
	struct usb_endpoint_descriptor *bulk_in, *bulk_out;
	struct usb_skel *dev;
	int retval;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	kref_init(&dev->kref);
	mutex_init(&dev->io_mutex);
	mutex_init(&dev->read_mutex);
	spin_lock_init(&dev->err_lock);
	INIT_LIST_HEAD(&dev->files);
	init_waitqueue_head(&dev->bulk_in_wait);
	INIT_WORK(&dev->read_work, skel_read_work);
	atomic_set(&dev->writes_in_flight, 0);
	init_waitqueue_head(&dev->bulk_out_wait);
	INIT_WORK(&dev->halt_work, skel_halt_work);
	dev->udev = usb_get_dev(interface_to_usbdev(interface));
	dev->interface = usb_get_intf(interface);

	/* Use the first bulk-in and the first bulk-out endpoint. */
	retval = usb_find_common_endpoints(interface->cur_altsetting,
					   &bulk_in, &bulk_out, NULL, NULL);
	if (retval) {
		dev_err(&interface->dev,
			"Could not find both bulk-in and bulk-out endpoints\n");
		goto error;
	}
	dev->bulk_in_ep = usb_endpoint_num(bulk_in);
	dev->bulk_out_ep = usb_endpoint_num(bulk_out);

	dev->bulk_in_size = usb_endpoint_maxp(bulk_in);
	dev->bulk_in_buffer = kmalloc(dev->bulk_in_size, GFP_KERNEL);
	if (!dev->bulk_in_buffer) {
		retval = -ENOMEM;
		goto error;
	}
	dev->bulk_in_urb = usb_alloc_urb(0, GFP_KERNEL);
	if (!dev->bulk_in_urb) {
		retval = -ENOMEM;
		goto error;
	}

	/* open() finds dev through the interface: set it before the node. */
	usb_set_intfdata(interface, dev);
	retval = usb_register_dev(interface, &skel_class);
	if (retval) {
		dev_err(&interface->dev, "Not able to get a minor: %d\n",
			retval);
		usb_set_intfdata(interface, NULL);
		goto error;
	}

	dev_info(&interface->dev, "USB skeleton device now attached to %s\n",
		 dev_name(interface->usb_dev));
	return 0;

error:
	/* Frees whatever was allocated. */
	kref_put(&dev->kref, skel_delete);
	return retval;
}

/*
 * The device is gone, or the driver is being unbound.  Open files keep dev
 * (by its kref) and fail with -ENODEV from now on.  Unless a driver sets
 * soft_unbind, the USB core has already disabled its endpoints, which ended
 * the URBs in flight; the kills below make sure of it either way.
 */
static void skel_disconnect(struct usb_interface *interface)
{
	struct usb_skel *dev = usb_get_intfdata(interface);
	struct skel_file *sf;

	/* No new opens: they find no dev, and then no minor. */
	usb_set_intfdata(interface, NULL);
	usb_deregister_dev(interface, &skel_class);

	/* No new I/O; end the I/O in flight, which wakes reader and writers. */
	mutex_lock(&dev->io_mutex);
	spin_lock_irq(&dev->err_lock);		/* for skel_poll_in() */
	dev->disconnected = true;
	spin_unlock_irq(&dev->err_lock);
	list_for_each_entry(sf, &dev->files, node)
		usb_kill_anchored_urbs(&sf->submitted);
	mutex_unlock(&dev->io_mutex);
	usb_kill_urb(dev->bulk_in_urb);
	/* Nothing queues them now: no URB is left, and poll() sees the flag. */
	cancel_work_sync(&dev->read_work);
	/* A halt_work that never ran leaves us its reference to drop. */
	if (cancel_work_sync(&dev->halt_work))
		usb_autopm_put_interface(interface);
	/*
	 * No halt is left to clear either.  Wake the calls that waited for
	 * one, and pollers, who may be waiting for no URB at all.
	 */
	spin_lock_irq(&dev->err_lock);
	dev->bulk_in_halted = false;
	dev->bulk_out_halted = false;
	dev->io_stopped = false;
	spin_unlock_irq(&dev->err_lock);
	wake_up_interruptible(&dev->bulk_in_wait);
	wake_up_interruptible(&dev->bulk_out_wait);

	kref_put(&dev->kref, skel_delete);
	dev_info(&interface->dev, "USB skeleton device now disconnected\n");
}

/*
 * Power management.  The USB core suspends the device once nothing holds it
 * awake (an open file, a skel_halt_work() to run) or when the system sleeps.
 * Nobody starts the read URB until resume: no file is open for an
 * autosuspend, and user tasks are frozen for a system sleep; the
 * skel_read_work() a poller queued before is cancelled here.  The next read
 * starts it again, and pollers, woken at resume, queue skel_read_work().
 */
static int skel_suspend(struct usb_interface *intf, pm_message_t message)
{
	struct usb_skel *dev = usb_get_intfdata(intf);

	if (dev) {
		cancel_work_sync(&dev->read_work);
		mutex_lock(&dev->io_mutex);
		skel_draw_down(dev);
		mutex_unlock(&dev->io_mutex);
		/*
		 * Clear a halt before the system sleeps.  No autosuspend
		 * comes while skel_halt_work() is queued: it holds the
		 * device awake.
		 */
		if (!PMSG_IS_AUTO(message))
			flush_work(&dev->halt_work);
	}
	return 0;
}

static int skel_resume(struct usb_interface *intf)
{
	struct usb_skel *dev = usb_get_intfdata(intf);

	if (dev)
		wake_up_interruptible(&dev->bulk_in_wait);
	return 0;
}

/*
 * Someone (usbfs, an error handler) resets the device: stop I/O, and keep
 * it stopped, holding io_mutex, until the reset is over.  A reset loses
 * whatever the device held, so every file open across it hears -EPIPE, once,
 * from its next call; pollers look again.  The reset has cleared any halt
 * (a skel_halt_work() queued meanwhile finds none).
 */
static int skel_pre_reset(struct usb_interface *intf)
{
	struct usb_skel *dev = usb_get_intfdata(intf);

	mutex_lock(&dev->io_mutex);
	spin_lock_irq(&dev->err_lock);	/* writes stop, and poll() says so */
	dev->io_stopped = true;
	spin_unlock_irq(&dev->err_lock);
	skel_draw_down(dev);
	return 0;
}

static int skel_post_reset(struct usb_interface *intf)
{
	struct usb_skel *dev = usb_get_intfdata(intf);
	struct skel_file *sf;

	spin_lock_irq(&dev->err_lock);
	list_for_each_entry(sf, &dev->files, node)
		sf->reset = true;
	dev->bulk_in_halted = false;
	dev->bulk_out_halted = false;
	dev->io_stopped = false;
	spin_unlock_irq(&dev->err_lock);
	mutex_unlock(&dev->io_mutex);
	wake_up_interruptible(&dev->bulk_in_wait);
	wake_up_interruptible(&dev->bulk_out_wait);
	return 0;
}

static struct usb_driver skel_driver = {
	.name			= "kitskel",
	.probe			= skel_probe,
	.disconnect		= skel_disconnect,
	.suspend		= skel_suspend,
	.resume			= skel_resume,
	.pre_reset		= skel_pre_reset,
	.post_reset		= skel_post_reset,
	.id_table		= skel_table,
	.supports_autosuspend	= 1,
};

module_usb_driver(skel_driver);

MODULE_DESCRIPTION("iterkit: a USB skeleton driver (.read_iter/.write_iter)");
MODULE_LICENSE("GPL");

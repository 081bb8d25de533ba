// SPDX-License-Identifier: GPL-2.0
/*
 * kit_skelhold - a test tool: hold the USB skeleton's io_mutex while loaded
 *
 * tests/skeleton.c loads it to hold the lock that the driver's open, close
 * and write take for a moment, for as long as a test needs, so that a race
 * with them happens every time:
 *
 *	insmod kit_skelhold.ko		(rmmod lets the lock go)
 *
 * It finds the first device with the ids vendor:product (default 0xfff0:
 * 0xfff0, the gadget's), whose interface 0 must be bound to kitskel, and
 * opens its node, as a user would: the open file holds the driver's data
 * (struct usb_skel, by its kref) until it is closed, after the lock is let
 * go.  It knows struct usb_skel as the driver defines it: its build takes
 * the definition from the skeleton's kitskel.c (driver_struct.h, which
 * struct-of makes), so that it finds io_mutex wherever that file puts it
 * (a module built from another source must keep that layout); it
 * checks the struct's device and interface against the device.  A thread
 * of its own takes the lock (a lock held on the way back to user space is
 * a bug) and holds it until the module is unloaded, which closes the
 * file, or for hold_ms at most, after which it closes the file itself, so
 * that a test that fails meanwhile leaves no task hung on the lock, and
 * kitskel free to unload; the parameter held says whether it still holds
 * the lock.  The load returns once the lock is held.  It fails with
 * -ENODEV without such a device or driver, -EINVAL if the interface's
 * driver data is not kitskel's, or with the open's error.
 *
 * It is a probe for the tests, not a template to copy.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/usb.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "driver_struct.h"	/* struct usb_skel, kitskel.c's */

static ushort vendor = 0xfff0;
module_param(vendor, ushort, 0444);
MODULE_PARM_DESC(vendor, "The device's vendor id (default 0xfff0)");

static ushort product = 0xfff0;
module_param(product, ushort, 0444);
MODULE_PARM_DESC(product, "The device's product id (default 0xfff0)");

static uint hold_ms = 10000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "Let the lock go after so long (default 10000)");

static int held;
module_param(held, int, 0444);
MODULE_PARM_DESC(held, "1 while the lock is held (read only)");

static struct usb_device_id kit_skelhold_id;	/* vendor:product */
static struct mutex *kit_skelhold_lock;		/* the one held */
static struct file *kit_skelhold_file;		/* holds the driver data */
static DECLARE_COMPLETION(kit_skelhold_held);
static struct task_struct *kit_skelhold_task;

/* usb_for_each_dev()'s callback: the device with our ids, referenced. */
static int kit_skelhold_match(struct usb_device *udev, void *data)
{
	struct usb_interface *intf = usb_ifnum_to_if(udev, 0);
	struct usb_device **found = data;

	if (!intf || !usb_match_one_id(intf, &kit_skelhold_id))
		return 0;
	*found = usb_get_dev(udev);
	return 1;
}

/* Sleep until kthread_stop(), or for timeout jiffies at most. */
static void kit_skelhold_sleep(long timeout)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop() || !timeout)
			break;
		timeout = schedule_timeout(timeout);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Hold the lock until kthread_stop(), or hold_ms; after hold_ms, close the
 * file too (a close from here is done later, by a work item), and wait for
 * kthread_stop().
 */
static int kit_skelhold_thread(void *unused)
{
	mutex_lock(kit_skelhold_lock);
	WRITE_ONCE(held, 1);
	complete(&kit_skelhold_held);
	kit_skelhold_sleep(msecs_to_jiffies(hold_ms));
	WRITE_ONCE(held, 0);
	mutex_unlock(kit_skelhold_lock);
	/* The lock is let go: the driver data may go with the file. */
	if (!kthread_should_stop()) {
		filp_close(kit_skelhold_file, NULL);
		kit_skelhold_file = NULL;
	}
	kit_skelhold_sleep(MAX_SCHEDULE_TIMEOUT);
	return 0;
}

/* The node of kitskel's interface, "/dev/skel0": NULL if not bound. */
static char *kit_skelhold_node(struct usb_interface *intf)
{
	char *node = NULL;

	device_lock(&intf->dev);	/* no unbind meanwhile */
	if (intf->dev.driver && !strcmp(intf->dev.driver->name, "kitskel") &&
	    intf->usb_dev)
		node = kasprintf(GFP_KERNEL, "/dev/%s",
				 dev_name(intf->usb_dev));
	device_unlock(&intf->dev);
	return node;
}

static int __init kit_skelhold_init(void)
{
	struct usb_device *udev = NULL;
	struct usb_interface *intf;
	struct usb_skel *dev;
	char *node;
	int ret = 0;

	kit_skelhold_id = (struct usb_device_id){ USB_DEVICE(vendor, product) };
	usb_for_each_dev(&udev, kit_skelhold_match);
	if (!udev) {
		pr_info("no device %04x:%04x\n", vendor, product);
		return -ENODEV;
	}
	intf = usb_ifnum_to_if(udev, 0);
	node = kit_skelhold_node(intf);
	if (!node) {
		pr_err("%s: not bound to kitskel\n", dev_name(&intf->dev));
		usb_put_dev(udev);
		return -ENODEV;
	}
	kit_skelhold_file = filp_open(node, O_RDWR, 0);
	kfree(node);
	if (IS_ERR(kit_skelhold_file)) {
		usb_put_dev(udev);
		return PTR_ERR(kit_skelhold_file);
	}
	/* The driver can't be unbound meanwhile: its driver data stays. */
	device_lock(&intf->dev);
	dev = usb_get_intfdata(intf);
	if (!dev || dev->udev != udev || dev->interface != intf) {
		pr_err("%s: no driver data of kitskel's\n",
		       dev_name(&intf->dev));
		ret = -EINVAL;
		goto out;
	}
	kit_skelhold_lock = &dev->io_mutex;
	kit_skelhold_task = kthread_run(kit_skelhold_thread, NULL,
					"kit_skelhold");
	if (IS_ERR(kit_skelhold_task)) {
		ret = PTR_ERR(kit_skelhold_task);
		goto out;
	}
	wait_for_completion(&kit_skelhold_held);
	pr_info("%s: io_mutex held\n", dev_name(&intf->dev));
out:
	device_unlock(&intf->dev);
	usb_put_dev(udev);
	if (ret)
		filp_close(kit_skelhold_file, NULL);
	return ret;
}

static void __exit kit_skelhold_exit(void)
{
	kthread_stop(kit_skelhold_task);
	/* Closed by the time rmmod returns: the test's close may be the last. */
	if (kit_skelhold_file)
		filp_close(kit_skelhold_file, NULL);
	pr_info("io_mutex let go\n");
}

module_init(kit_skelhold_init);
module_exit(kit_skelhold_exit);

MODULE_DESCRIPTION("iterkit test tool: hold the USB skeleton's io_mutex");
MODULE_LICENSE("GPL");

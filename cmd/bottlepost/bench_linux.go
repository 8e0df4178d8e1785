package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the daemon a bench started die when the bench does,
// however it ends (an interrupted test, a killed bench): no daemon is left
// holding the data directory.
func dieWithParent(c *exec.Cmd) *exec.Cmd {
	c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return c
}

package daemon

import "github.com/bottlepost/bottlepost/store"

// Store is the open store, for tests that read what the daemon committed.
func (d *Daemon) Store() *store.Store { return d.st }

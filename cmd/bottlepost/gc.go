package main

import (
	"os"
	"runtime/debug"
)

// serveGCPercent is the garbage collector's target for serve and bench
// unless GOGC is set. The service's live heap is small (a few MB: games are
// read from the store per message, never kept), while every message
// allocates a lot that dies at once (MIME parsing, templates, encryption);
// with Go's default of 100 the collector runs after every few MB and took
// about a tenth of the daemon's CPU under load. 400 lets the heap grow to
// five times the live data (tens of MB) before a collection.
const serveGCPercent = 400

// tuneGC applies serveGCPercent unless the operator chose with GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(serveGCPercent)
	}
}

package game

import (
	"fmt"
	"strings"
	"time"
)

func (h *handling) timezone(c Command, reply *draft) error {
	loc, err := time.LoadLocation(c.Arg)
	if err != nil || c.Arg == "" || strings.EqualFold(c.Arg, "local") {
		return userf("%q is not a time zone name; use one like Europe/Berlin, America/New_York or UTC", c.Arg)
	}
	h.pmeta.TZ = loc.String()
	if err := h.savePlayer(); err != nil {
		return err
	}
	name, off := h.now.In(loc).Zone()
	reply.notice("Deadlines will be shown in %s (now %s, UTC%s).", loc.String(), name, offset(off))
	return nil
}

func offset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return fmt.Sprintf("%s%02d:%02d", sign, sec/3600, sec%3600/60)
}

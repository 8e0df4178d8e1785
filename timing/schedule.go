package timing

import (
	"fmt"

	"github.com/robfig/cron/v3"
)

// ParseSchedule reads a cron spec: five fields, the descriptors @every,
// @daily, … and a leading CRON_TZ=zone. It never lets the library panic on
// malformed input (some specs make robfig/cron panic instead of failing).
func ParseSchedule(spec string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("timing: %q is not a schedule (%v)", spec, r)
		}
	}()
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("timing: %q is not a schedule: %w", spec, err)
	}
	return sched, nil
}

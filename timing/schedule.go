package timing

import (
	"fmt"

	"github.com/robfig/cron/v3"

	"github.com/bottlepost/bottlepost/lang"
)

// ParseSchedule reads a cron spec: five fields, the descriptors @every,
// @daily, … and a leading CRON_TZ=zone. It never lets the library panic on
// malformed input (some specs make robfig/cron panic instead of failing).
func ParseSchedule(spec string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, lang.Fail("timing", "%q is not a schedule (%s)", spec, lang.Raw(fmt.Sprint(r)))
		}
	}()
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		e := lang.Fail("timing", "%q is not a schedule: %s", spec, lang.Raw(err.Error()))
		e.Err = err
		return nil, e
	}
	return sched, nil
}

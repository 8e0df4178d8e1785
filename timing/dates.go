package timing

import (
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
)

// FormatDate writes an instant as a mail shows it to a reader of a
// language: layout is time.Format's, in English ("Mon 2 Jan 2006 15:04
// MST"); German writes its weekday, day, month and zone as German readers
// do ("Mo 2. Jan. 2026 15:04 MEZ").
func FormatDate(t time.Time, layout string, l lang.Lang) string {
	if l != lang.German {
		return t.Format(layout)
	}
	r := strings.NewReplacer("Mon", "{W}", "Jan", "{M}", "MST", "{Z}", " 2 ", " 2. ")
	s := t.Format(r.Replace(layout))
	zone, _ := t.Zone()
	if z, ok := germanZones[zone]; ok {
		zone = z
	}
	return strings.NewReplacer("{W}", germanDays[t.Weekday()], "{M}", germanMonths[t.Month()-1], "{Z}", zone).Replace(s)
}

var (
	germanDays   = [7]string{"So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"}
	germanMonths = [12]string{"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sep.", "Okt.", "Nov.", "Dez."}
	germanZones  = map[string]string{"CET": "MEZ", "CEST": "MESZ"}
)

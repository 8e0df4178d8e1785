// Package variants is the registry of bottlepost's variants: the one place
// that knows every variant package, so that the CLI and the game service can
// look a variant up by its id.
package variants

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// IDs lists every variant id bottlepost offers, in the order shown to users.
var IDs = []string{"chess", "seachess", "submachine", "baltic", "battle", "transporter"}

// names are the display names, also for variants not built yet.
var names = map[string]string{
	"chess":       "Chess",
	"seachess":    "Seachess",
	"submachine":  "Submachine Chess",
	"baltic":      "Baltic Sea Chess",
	"battle":      "Chess-Battle",
	"transporter": "Transporter Chess",
}

// built maps ids to the variants implemented so far.
var built = map[string]rules.Variant{}

func register(v rules.Variant) { built[v.ID()] = v }

// Name returns a variant's display name, built or not.
func Name(id string) string { return names[id] }

// Lookup returns the variant with the given id (case-insensitive). Unknown
// ids and ids not built yet give an error that says which.
func Lookup(id string) (rules.Variant, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	if v, ok := built[id]; ok {
		return v, nil
	}
	if _, ok := names[id]; ok {
		return nil, lang.Fail("variants", "%s (%s) is not built yet", id, names[id])
	}
	return nil, lang.Fail("variants", "unknown variant %q (known: %s)", id, strings.Join(IDs, ", "))
}

// All returns the built variants in the order of IDs.
func All() []rules.Variant {
	var out []rules.Variant
	for _, id := range IDs {
		if v, ok := built[id]; ok {
			out = append(out, v)
		}
	}
	return out
}

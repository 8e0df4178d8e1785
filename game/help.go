package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/rules/variants"
)

func (h *handling) help(c Command) error {
	d := h.draft(h.from, nil, "help")
	d.subject = "bottlepost: help"
	if c.Variant == string(VerbRatings) {
		d.variantHelp, d.subject = ratingsHelp, "bottlepost: help ratings"
		return nil
	}
	if c.Variant == string(VerbTournaments) || c.Variant == string(VerbTournament) {
		d.variantHelp, d.subject = tournamentHelp, "bottlepost: help tournaments"
		return nil
	}
	if c.Variant == string(VerbTournaments) || c.Variant == string(VerbTournament) {
		d.variantHelp, d.subject = tournamentHelp, "bottlepost: help tournaments"
		return nil
	}
	if c.Variant != "" {
		v, err := variants.Lookup(c.Variant)
		if err != nil {
			return userf("%s", strings.TrimPrefix(err.Error(), "variants: "))
		}
		d.variantHelp = v.Help()
		d.subject = "bottlepost: help " + v.Name()
	}
	return nil
}

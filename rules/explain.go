package rules

// Check is one line of a variant's explainer table (its why, which says
// why a move is not legal): a rule the move may break, tested in the
// table's order. Fails says whether the move at hand (T, the variant's
// description of it) breaks the rule; the reason is Say's when Say is set,
// else Text; the ruling cited is Cite's when Cite is set, else Ruling. Stage, for explainers that weigh
// the explanations of several pieces (chess's "Nd2" with two knights), says
// how far a move got through the rules: the furthest is the most telling.
type Check[T any] struct {
	Fails  func(T) bool
	Text   string
	Say    func(T) string
	Ruling string
	Cite   func(T) string
	Stage  int
}

// Explain goes down a table of checks and returns the first that m fails,
// with its reason and ruling; c is nil when m fails none.
func Explain[T any](m T, table []Check[T]) (c *Check[T], reason, ruling string) {
	for i := range table {
		c := &table[i]
		if !c.Fails(m) {
			continue
		}
		reason, ruling = c.Text, c.Ruling
		if c.Say != nil {
			reason = c.Say(m)
		}
		if c.Cite != nil {
			ruling = c.Cite(m)
		}
		return c, reason, ruling
	}
	return nil, "", ""
}

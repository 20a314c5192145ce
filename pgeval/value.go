package pgeval

import (
	"fmt"
	"math/big"
	"strings"
)

// Type is a SQL type as the evaluator tracks it.
type Type uint8

// The types of values. Unknown is a quoted literal (or an untyped NULL) whose type the
// expression around it decides, as PostgreSQL's "unknown" pseudo-type.
const (
	Unknown Type = iota
	Bool
	Int4
	Int8
	Numeric
	Text
)

var typeNames = [...]string{"unknown", "boolean", "integer", "bigint", "numeric", "text"}

func (t Type) String() string { return typeNames[t] }

// Value is a SQL value: NULL, or a value of its type.
type Value struct {
	Type Type
	Null bool
	B    bool
	I    int64   // Int4, Int8
	N    Decimal // Numeric
	S    string  // Text, Unknown
}

// String is PostgreSQL's text output of the value ("" for NULL): t and f for booleans,
// numerics with their display scale.
func (v Value) String() string {
	if v.Null {
		return ""
	}
	switch v.Type {
	case Bool:
		if v.B {
			return "t"
		}
		return "f"
	case Int4, Int8:
		return fmt.Sprint(v.I)
	case Numeric:
		return v.N.String()
	}
	return v.S
}

// Decimal is an exact decimal: Unscaled × 10^-Scale, the scale being PostgreSQL's
// display scale (1.50 has scale 2).
type Decimal struct {
	Unscaled *big.Int
	Scale    int
}

func (d Decimal) String() string {
	u := d.Unscaled
	if u == nil {
		u = new(big.Int)
	}
	s := new(big.Int).Abs(u).String()
	sign := ""
	if u.Sign() < 0 {
		sign = "-"
	}
	if d.Scale <= 0 {
		return sign + s + strings.Repeat("0", -d.Scale)
	}
	if len(s) <= d.Scale {
		s = strings.Repeat("0", d.Scale-len(s)+1) + s
	}
	return sign + s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
}

// ParseDecimal reads a numeric literal or numeric input text ("1.50", "-3e2", " 7 ").
func ParseDecimal(s string) (Decimal, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Decimal{}, false
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		var e int
		if _, err := fmt.Sscanf(s[i+1:], "%d", &e); err != nil || fmt.Sprint(e) != strings.TrimPrefix(s[i+1:], "+") {
			return Decimal{}, false
		}
		if e > 1000 || e < -1000 {
			return Decimal{}, false
		}
		exp, s = e, s[:i]
	}
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return Decimal{}, false
	}
	u, ok := new(big.Int).SetString("0"+intPart+frac, 10)
	if !ok {
		return Decimal{}, false
	}
	if neg {
		u.Neg(u)
	}
	d := Decimal{Unscaled: u, Scale: len(frac) - exp}
	if d.Scale < 0 {
		// PostgreSQL keeps no negative display scale: 1e2 is 100.
		d.Unscaled.Mul(d.Unscaled, pow10(-d.Scale))
		d.Scale = 0
	}
	return d, true
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// rescale returns d with the given scale, rounding half away from zero when digits go.
func (d Decimal) rescale(scale int) Decimal {
	if scale >= d.Scale {
		return Decimal{new(big.Int).Mul(d.Unscaled, pow10(scale-d.Scale)), scale}
	}
	return Decimal{roundDiv(d.Unscaled, pow10(d.Scale-scale)), scale}
}

// roundDiv is a/b rounded half away from zero (b > 0).
func roundDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(b) >= 0 {
		if a.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

func (d Decimal) cmp(e Decimal) int {
	s := max(d.Scale, e.Scale)
	return d.rescale(s).Unscaled.Cmp(e.rescale(s).Unscaled)
}

func (d Decimal) add(e Decimal, sub bool) Decimal {
	s := max(d.Scale, e.Scale)
	a, b := d.rescale(s).Unscaled, e.rescale(s).Unscaled
	if sub {
		return Decimal{new(big.Int).Sub(a, b), s}
	}
	return Decimal{new(big.Int).Add(a, b), s}
}

func (d Decimal) mul(e Decimal) Decimal {
	return Decimal{new(big.Int).Mul(d.Unscaled, e.Unscaled), d.Scale + e.Scale}
}

// numeric limits of PostgreSQL (numeric.c).
const (
	minSigDigits = 16
	maxDisplay   = 1000
	decDigits    = 4 // decimal digits per NBASE digit
)

// weightAndFirst are PostgreSQL's view of a nonzero decimal in base 10000 (NBASE): the
// weight of its first base-10000 digit (10000^weight) and that digit.
func (d Decimal) weightAndFirst() (weight, first int) {
	a := new(big.Int).Abs(d.Unscaled)
	if a.Sign() == 0 {
		return 0, 0
	}
	e10 := len(a.String()) - 1 - d.Scale // floor(log10 |d|)
	weight = floorDiv(e10, decDigits)
	q := new(big.Int)
	if k := -d.Scale - decDigits*weight; k >= 0 {
		q.Mul(a, pow10(k))
	} else {
		q.Quo(a, pow10(-k))
	}
	return weight, int(q.Int64())
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// div is PostgreSQL's numeric division: the result scale select_div_scale picks, rounded.
func (d Decimal) div(e Decimal) (Decimal, error) {
	if e.Unscaled.Sign() == 0 {
		return Decimal{}, &SQLError{Code: "22012", Message: "division by zero"}
	}
	w1, f1 := d.weightAndFirst()
	w2, f2 := e.weightAndFirst()
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	rscale := minSigDigits - qweight*decDigits
	rscale = max(rscale, d.Scale, e.Scale, 0)
	rscale = min(rscale, maxDisplay)
	return quotient(d, e, rscale), nil
}

// quotient is d/e to scale digits, rounded half away from zero.
func quotient(d, e Decimal, scale int) Decimal {
	// d/e = (ud/10^sd) / (ue/10^se); scaled by 10^scale:
	// ud * 10^(scale + se - sd) / ue
	num := new(big.Int).Set(d.Unscaled)
	den := new(big.Int).Set(e.Unscaled)
	if k := scale + e.Scale - d.Scale; k >= 0 {
		num.Mul(num, pow10(k))
	} else {
		den.Mul(den, pow10(-k))
	}
	if den.Sign() < 0 {
		num.Neg(num)
		den.Neg(den)
	}
	return Decimal{roundDiv(num, den), scale}
}

// mod is PostgreSQL's numeric modulo: the remainder of the truncated quotient.
func (d Decimal) mod(e Decimal) (Decimal, error) {
	if e.Unscaled.Sign() == 0 {
		return Decimal{}, &SQLError{Code: "22012", Message: "division by zero"}
	}
	s := max(d.Scale, e.Scale)
	a, b := d.rescale(s).Unscaled, e.rescale(s).Unscaled
	return Decimal{new(big.Int).Rem(a, b), s}, nil
}

func decimalOf(i int64) Decimal { return Decimal{big.NewInt(i), 0} }

// SQLError is an error PostgreSQL raises while evaluating (division by zero, a value
// that does not convert): a branch whose expression raises one counts as false.
type SQLError struct {
	Code    string // the SQLSTATE
	Message string
}

func (e *SQLError) Error() string { return e.Message }

// Unsupported is a construct the evaluator does not know; the choice it decides stays
// free. Offset is its byte offset in the expression.
type Unsupported struct {
	Construct string
	Offset    int
}

func (e *Unsupported) Error() string { return e.Construct + " is not supported by the evaluator" }

package pgeval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Type is a SQL type as the evaluator tracks it.
type Type uint8

// The types of values. Unknown is a quoted literal (or an untyped NULL) whose type the
// expression around it decides, as PostgreSQL's "unknown" pseudo-type. Float8 (double
// precision) is what PostgreSQL's function resolution gives abs and round of an
// unknown, and round of an integer; no context value or cast is one.
const (
	Unknown Type = iota
	Bool
	Int4
	Int8
	Numeric
	Text
	Float8
)

var typeNames = [...]string{"unknown", "boolean", "integer", "bigint", "numeric", "text", "double precision"}

func (t Type) String() string { return typeNames[t] }

// Value is a SQL value: NULL, or a value of its type.
type Value struct {
	Type Type
	Null bool
	B    bool
	I    int64   // Int4, Int8
	N    Decimal // Numeric
	S    string  // Text, Unknown
	F    float64 // Float8: never NaN or infinite
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
	case Float8:
		return float8Text(v.F)
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

// ParseDecimal reads a numeric literal or numeric input text ("1.50", "-3e2", " 7 ");
// false when it is not one, or when PostgreSQL's numeric cannot hold it (see
// parseNumeric).
func ParseDecimal(s string) (Decimal, bool) {
	d, err := parseNumeric(s)
	return d, err == nil
}

// errNumericSyntax and errNumericOverflow are why parseNumeric refused a text: it is
// no number, or one PostgreSQL's numeric input refuses with "value overflows numeric
// format" (SQLSTATE 22003).
var (
	errNumericSyntax   = &SQLError{Code: "22P02", Message: "invalid input syntax for type numeric"}
	errNumericOverflow = &SQLError{Code: "22003", Message: "value overflows numeric format"}
)

// parseNumeric reads a number as PostgreSQL's numeric input does (numeric.c,
// set_var_from_str and make_result), exactly, whatever its exponent: 1e-1001 is 0.000…1
// with 1001 digits after the point. PostgreSQL refuses, with errNumericOverflow, an
// exponent beyond ±(2^31-1)/2, more than 16383 digits after the point (the display
// scale: digits after the point minus the exponent), and a value of 10^131072 or more
// (the first base-10000 digit's weight beyond 32767); each is checked before any digit
// is computed, so no text makes this costly.
func parseNumeric(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	if d, ok := shortDecimal(s); ok {
		return d, nil
	}
	return parseNumericText(s)
}

// parseNumericText is parseNumeric of a text with no space around it, for any text.
func parseNumericText(s string) (Decimal, error) {
	exp := int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e := s[i+1:]
		digits := strings.TrimLeft(e, "+-")
		if digits == "" || len(e)-len(digits) > 1 || strings.Trim(digits, "0123456789") != "" {
			return Decimal{}, errNumericSyntax
		}
		x, err := strconv.ParseInt(e, 10, 64)
		if err != nil || x >= maxExponent || x <= -maxExponent {
			return Decimal{}, errNumericOverflow // beyond int64 is beyond the bound too
		}
		exp, s = x, s[:i]
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
		return Decimal{}, errNumericSyntax
	}
	scale := max(int64(len(frac))-exp, 0)
	if scale > maxDScale {
		return Decimal{}, errNumericOverflow
	}
	// The digits from the first nonzero one, and where the point is after them.
	mantissa := strings.TrimLeft(intPart+frac, "0")
	if mantissa != "" && int64(len(intPart))-int64(len(intPart+frac)-len(mantissa))+exp > maxIntDigits {
		return Decimal{}, errNumericOverflow
	}
	u, ok := new(big.Int).SetString("0"+intPart+frac, 10)
	if !ok {
		return Decimal{}, errNumericSyntax
	}
	if neg {
		u.Neg(u)
	}
	// PostgreSQL keeps no negative display scale: 1e2 is 100.
	if shift := int64(len(frac)) - exp; shift < 0 && u.Sign() != 0 {
		u.Mul(u, pow10(int(-shift)))
	}
	return Decimal{Unscaled: u, Scale: int(scale)}, nil
}

// shortDecimal reads what most numbers are, fast: an optional -, at most 18 digits and
// at most one point, with a digit on one side of it at least; ok is false for anything
// else, which parseNumeric reads the long way (to the same value and scale).
func shortDecimal(s string) (Decimal, bool) {
	t := s
	if len(t) > 0 && t[0] == '-' {
		t = t[1:]
	}
	if len(t) == 0 || len(t) > 19 {
		return Decimal{}, false
	}
	var u int64
	digits, scale, point := 0, 0, false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			u = u*10 + int64(c-'0')
			digits++
			if point {
				scale++
			}
		case c == '.' && !point:
			point = true
		default:
			return Decimal{}, false
		}
	}
	if digits == 0 || digits > 18 {
		return Decimal{}, false
	}
	if len(t) < len(s) {
		u = -u
	}
	return Decimal{Unscaled: big.NewInt(u), Scale: scale}, true
}

// checkRange is make_result's check of a numeric result: errNumericOverflow for a value
// of 10^131072 or more.
func checkRange(d Decimal) error {
	// |d| < 2^BitLen / 10^Scale, and 2^435411 < 10^131072: most values need no more.
	if d.Unscaled.BitLen() <= 435411 {
		return nil
	}
	if len(new(big.Int).Abs(d.Unscaled).String())-d.Scale > maxIntDigits {
		return errNumericOverflow
	}
	return nil
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
	if d.Scale == e.Scale {
		return d.Unscaled.Cmp(e.Unscaled)
	}
	if c, ok := cmpSmall(d, e); ok {
		return c
	}
	s := max(d.Scale, e.Scale)
	return d.rescale(s).Unscaled.Cmp(e.rescale(s).Unscaled)
}

// cmpSmall compares two decimals of few digits without allocating (the search compares
// its candidates with the constants thousands of times); ok is false when one is too
// long for int64 at the other's scale.
func cmpSmall(d, e Decimal) (int, bool) {
	if !d.Unscaled.IsInt64() || !e.Unscaled.IsInt64() {
		return 0, false
	}
	a, b := d.Unscaled.Int64(), e.Unscaled.Int64()
	k := e.Scale - d.Scale
	if k < 0 {
		a, b, k = b, a, -k
		c, ok := cmpScaled(a, b, k)
		return -c, ok
	}
	return cmpScaled(a, b, k)
}

// cmpScaled compares a × 10^k with b.
func cmpScaled(a, b int64, k int) (int, bool) {
	if k >= len(pow10s) {
		return 0, false
	}
	p := pow10s[k]
	if a > math.MaxInt64/p || a < math.MinInt64/p {
		return 0, false
	}
	a *= p
	switch {
	case a < b:
		return -1, true
	case a > b:
		return 1, true
	}
	return 0, true
}

// pow10s are the powers of ten an int64 holds.
var pow10s = func() []int64 {
	p := []int64{1}
	for len(p) < 19 {
		p = append(p, p[len(p)-1]*10)
	}
	return p
}()

func (d Decimal) add(e Decimal, sub bool) Decimal {
	s := max(d.Scale, e.Scale)
	a, b := d.rescale(s).Unscaled, e.rescale(s).Unscaled
	if sub {
		return Decimal{new(big.Int).Sub(a, b), s}
	}
	return Decimal{new(big.Int).Add(a, b), s}
}

// mul is the exact product, rounded to the most digits after the point a numeric
// holds (numeric_mul).
func (d Decimal) mul(e Decimal) Decimal {
	p := Decimal{new(big.Int).Mul(d.Unscaled, e.Unscaled), d.Scale + e.Scale}
	if p.Scale > maxDScale {
		p = p.rescale(maxDScale)
	}
	return p
}

// numeric limits of PostgreSQL (numeric.c).
const (
	minSigDigits = 16
	maxDisplay   = 1000
	decDigits    = 4 // decimal digits per NBASE digit
	maxDScale    = 0x3FFF
	// maxIntDigits are the most digits before the point: the weight of the first
	// base-10000 digit is an int16.
	maxIntDigits = 4 * (0x7FFF + 1)
	// maxExponent bounds an input exponent (INT_MAX / 2).
	maxExponent = (1<<31 - 1) / 2
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

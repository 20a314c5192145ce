package pgeval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// double precision, as far as abs and round bring it in: PostgreSQL resolves abs and
// round of an unknown (a quoted literal, an absent variable) to their double precision
// forms, and round of an integer too. Its values here are finite: the inputs that
// would give NaN or an infinity (the words, and hexadecimal, which the C library reads)
// are unsupported values, and arithmetic that overflows raises PostgreSQL's error.

var (
	errFloatOverflow  = &SQLError{Code: "22003", Message: "value out of range: overflow"}
	errFloatUnderflow = &SQLError{Code: "22003", Message: "value out of range: underflow"}
)

// float8Text is float8out: the shortest text that reads back as the same double, in
// fixed notation when the decimal exponent is from -4 to 14, else as 1.5e+15.
func float8Text(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	e := shortest(f)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 15 {
		return e
	}
	// The same digits in fixed notation: those after the first are exp places short
	// of being after the point.
	r, _ := new(big.Rat).SetString(e)
	digits := len(strings.Trim(e[:strings.IndexByte(e, 'e')], "-."))
	if strings.Contains(e, ".") {
		digits--
	}
	return r.FloatString(max(digits-1-exp, 0))
}

// shortest is f's digits as ryu finds them for PostgreSQL (d2s.c without
// STRICTLY_SHORTEST): the fewest digits strictly between the midpoints to f's
// neighbours, in %e form. Go's shortest may be a midpoint itself when f's mantissa
// is even (a reader rounding half to even still gets f); PostgreSQL then takes more.
func shortest(f float64) string {
	s := strconv.FormatFloat(f, 'e', -1, 64)
	if math.Float64bits(f)&1 != 0 {
		return s
	}
	x := new(big.Rat).SetFloat64(f)
	mid := func(toward float64) *big.Rat {
		n := math.Nextafter(f, toward)
		var gap *big.Rat
		if math.IsInf(n, 0) {
			gap = new(big.Rat).Sub(x, new(big.Rat).SetFloat64(math.Nextafter(f, -toward)))
		} else {
			gap = new(big.Rat).Sub(new(big.Rat).SetFloat64(n), x)
		}
		return gap.Add(x, gap.Quo(gap, big.NewRat(2, 1)))
	}
	lo, hi := mid(math.Inf(-1)), mid(math.Inf(1))
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	inside := func(s string) bool {
		r, _ := new(big.Rat).SetString(s)
		return r.Cmp(lo) > 0 && r.Cmp(hi) < 0
	}
	m, _, _ := strings.Cut(s, "e")
	_, frac, _ := strings.Cut(m, ".")
	// p digits after the point, 17 in all at most: always enough.
	for p := len(frac) + 1; !inside(s) && p <= 16; p++ {
		s = strconv.FormatFloat(f, 'e', p, 64)
	}
	m, exp, _ := strings.Cut(s, "e")
	if strings.Contains(m, ".") {
		m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	}
	return m + "e" + exp
}

// float8Input is float8in: a decimal number, with white space around it; one beyond
// double's range, or a nonzero one that would round to zero, is out of range.
func float8Input(s string) (Value, error) {
	trimmed := strings.Trim(s, " \t\n\r\v\f")
	if !decimalSyntax(trimmed) {
		word := strings.ToLower(strings.TrimLeft(trimmed, "+-"))
		if strings.HasPrefix(word, "nan") || strings.HasPrefix(word, "inf") || strings.HasPrefix(word, "0x") {
			return Value{}, &Unsupported{Construct: "double precision " + trimmed}
		}
		return Value{}, &SQLError{Code: "22P02", Message: fmt.Sprintf("invalid input syntax for type double precision: %q", s)}
	}
	f, err := strconv.ParseFloat(trimmed, 64)
	if err != nil || math.IsInf(f, 0) || f == 0 && strings.Trim(mantissa(trimmed), "+-0.") != "" {
		return Value{}, &SQLError{Code: "22003", Message: fmt.Sprintf("%q is out of range for type double precision", trimmed)}
	}
	return Value{Type: Float8, F: f}, nil
}

// decimalSyntax reports whether s is [+-]digits[.digits][e[+-]digits], with digits on
// at least one side of the point.
func decimalSyntax(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	m := mantissa(s)
	if rest := s[len(m):]; rest != "" {
		exp := rest[1:]
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if exp == "" || strings.Trim(exp, "0123456789") != "" {
			return false
		}
	}
	intPart, frac, _ := strings.Cut(m, ".")
	return intPart+frac != "" && strings.Trim(intPart+frac, "0123456789") == ""
}

// mantissa is s up to its exponent.
func mantissa(s string) string {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return s[:i]
	}
	return s
}

// toFloat8 converts an integer or a numeric to double precision: the nearest double,
// as the C library reads the number's text; a numeric beyond double's range, or a
// nonzero one nearer zero than the smallest double, raises out of range.
func toFloat8(v Value) (Value, error) {
	switch v.Type {
	case Int4, Int8:
		return Value{Type: Float8, F: float64(v.I)}, nil
	case Numeric:
		f, _ := new(big.Rat).SetFrac(v.N.Unscaled, pow10(v.N.Scale)).Float64()
		if math.IsInf(f, 0) || f == 0 && v.N.Unscaled.Sign() != 0 {
			return Value{}, &SQLError{Code: "22003", Message: fmt.Sprintf("%q is out of range for type double precision", v.N.String())}
		}
		return Value{Type: Float8, F: f}, nil
	}
	return v, nil
}

// float8ToNumeric is float8_numeric: the double written with 15 significant digits,
// read as a numeric.
func float8ToNumeric(f float64) (Value, error) {
	d, err := parseNumeric(strconv.FormatFloat(f, 'g', 15, 64))
	return Value{Type: Numeric, N: d}, err
}

// float8ToInt is dtoi4 and dtoi8: rounded half to even, then range-checked.
func float8ToInt(f float64, t Type) (Value, error) {
	r := math.RoundToEven(f)
	if t == Int4 {
		if r < math.MinInt32 || r >= -math.MinInt32 {
			return Value{}, errInt4Range
		}
	} else if r < math.MinInt64 || r >= -math.MinInt64 {
		return Value{}, errInt8Range
	}
	return Value{Type: t, I: int64(r)}, nil
}

// float8Arith is PostgreSQL's + - * / on doubles with their overflow, underflow and
// division-by-zero errors; doubles have no %.
func float8Arith(op string, a, b float64) (Value, error) {
	var r float64
	switch op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
		if r == 0 && a != 0 && b != 0 {
			return Value{}, errFloatUnderflow
		}
	case "/":
		if b == 0 {
			return Value{}, errDivZero
		}
		r = a / b
		if r == 0 && a != 0 {
			return Value{}, errFloatUnderflow
		}
	}
	if math.IsInf(r, 0) {
		return Value{}, errFloatOverflow
	}
	return Value{Type: Float8, F: r}, nil
}

package pgeval

import (
	"math"
	"slices"
	"strconv"
)

// smallNumbers is numbersExact's candidates, as texts in the order it adds them, computed
// over int64s when every constant and bound is a decimal of few digits (the common
// case: the search builds candidate sets thousands of times for one definition); ok is
// false otherwise, and numbersExact then does the work over rationals.
//
// Every point numbersExact makes is a constant, a constant ±1 or ±1/2, the integers
// around a constant or bound, or the midpoint of two such points: all are multiples of
// 10^-(k+2), k being the most digits after the point among the constants and bounds. So
// they are held as integers scaled by 10^(k+2), exactly, when that fits with room to
// spare; the order, the midpoints and the texts are then the same as over rationals.
func smallNumbers(consts []Decimal, d Domain) (texts []string, ok bool) {
	const limit = 1e17 // |a value|, scaled: sums of two stay far inside int64
	scale := 0
	for _, n := range consts {
		scale = max(scale, n.Scale)
	}
	lo, hasLo, okLo := boundDigits(d.Min)
	hi, hasHi, okHi := boundDigits(d.Max)
	if !okLo || !okHi {
		return nil, false
	}
	scale = max(scale, lo.scale, hi.scale) + 2
	if scale > 16 {
		return nil, false
	}
	unit := int64(math.Pow10(scale))
	scaled := func(u int64, s int) (int64, bool) {
		f := int64(math.Pow10(scale - s))
		if u > limit/f || u < -limit/f {
			return 0, false
		}
		return u * f, true
	}
	var lv, hv int64
	if hasLo {
		if lv, ok = scaled(lo.u, lo.scale); !ok {
			return nil, false
		}
	}
	if hasHi {
		if hv, ok = scaled(hi.u, hi.scale); !ok {
			return nil, false
		}
	}
	integer := d.Type == "integer"
	pts := make([]int64, 0, 5*(len(consts)+1))
	addAround := func(x int64) {
		if integer {
			fl := floorDiv64(x, unit) * unit
			cl := fl
			if cl != x {
				cl += unit
			}
			pts = append(pts, fl-unit, fl, cl, cl+unit)
			return
		}
		pts = append(pts, x, x+unit, x-unit, x+unit/2, x-unit/2)
	}
	addAround(0)
	for _, n := range consts {
		if !n.Unscaled.IsInt64() {
			return nil, false
		}
		x, ok := scaled(n.Unscaled.Int64(), n.Scale)
		if !ok {
			return nil, false
		}
		addAround(x)
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	if !integer {
		for i, n := 1, len(pts); i < n; i++ {
			pts = append(pts, (pts[i-1]+pts[i])/2) // exact: both are multiples of 10
		}
	}
	// Closest to zero first, a positive before its negative.
	abs := func(x int64) int64 {
		if x < 0 {
			return -x
		}
		return x
	}
	slices.SortFunc(pts, func(a, b int64) int {
		if abs(a) != abs(b) {
			if abs(a) < abs(b) {
				return -1
			}
			return 1
		}
		if a > b {
			return -1
		}
		if a < b {
			return 1
		}
		return 0
	})
	text := func(x int64) string { return scaledText(x, scale) }
	for _, p := range pts {
		if hasLo && p < lv || hasHi && p > hv {
			continue
		}
		texts = append(texts, text(p))
	}
	if hasLo {
		if integer {
			lv = floorDiv64(lv+unit-1, unit) * unit // the ceiling
		}
		if !hasHi || lv <= hv {
			texts = append(texts, text(lv))
		}
	}
	if hasHi {
		if integer {
			hv = floorDiv64(hv, unit) * unit
		}
		if !hasLo || hv >= lv {
			texts = append(texts, text(hv))
		}
	}
	return texts, true
}

// smallDecimal is a bound's digits: u × 10^-scale.
type smallDecimal struct {
	u     int64
	scale int
}

// boundDigits reads a domain bound written as plain decimal digits ("-12.5"); has is
// false for "", ok false for a bound written otherwise (an exponent, many digits), which
// numbersExact reads.
func boundDigits(s string) (d smallDecimal, has, ok bool) {
	if s == "" {
		return d, false, true
	}
	t := s
	if t[0] == '-' {
		t = t[1:]
	}
	if len(t) == 0 || len(t) > 17 {
		return d, true, false
	}
	digits := make([]byte, 0, len(t))
	point := -1
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == '.' && point < 0 && i > 0 && i+1 < len(t):
			point = i
		default:
			return d, true, false
		}
	}
	u, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil {
		return d, true, false
	}
	if s[0] == '-' {
		u = -u
	}
	if point >= 0 {
		d.scale = len(t) - point - 1
	}
	d.u = u
	return d, true, true
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// scaledText writes x × 10^-scale with as few digits after the point as it takes.
func scaledText(x int64, scale int) string {
	neg := x < 0
	if neg {
		x = -x
	}
	for scale > 0 && x%10 == 0 {
		x /= 10
		scale--
	}
	digits := strconv.FormatInt(x, 10)
	if scale > 0 {
		if len(digits) <= scale {
			digits = string(make0(scale-len(digits)+1)) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

func make0(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return b
}

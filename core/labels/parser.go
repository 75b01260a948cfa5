package labels

import (
	"errors"
	"slices"
	"strconv"
)

// Parse reads a selector string, such as "app=web,tier in (front,back),!canary",
// and accepts and rejects exactly the strings upstream's labels.Parse does. The
// grammar and what each operator means are described in the package
// documentation. The empty string gives Everything().
//
// The requirements are sorted by key, so that two strings that differ only in the
// order of their requirements give selectors that print the same. Keys and values
// are checked as NewRequirement checks them.
//
// The error says what was found where, and what would have been right there, e.g.
// `unable to parse requirement: found '(' at column 3, expected: in, notin, =, ==, !=, >, <`.
func Parse(selector string) (Selector, error) {
	p := parser{lex: lexer{input: selector}}
	if err := p.parseSelector(); err != nil {
		return Selector{}, err
	}
	return p.build.selector(), nil
}

// parser is a recursive-descent parser with one token of lookahead. Its structure
// follows upstream's Parser state for state, including the odd corners of value
// lists (see parseValues), because accepting exactly the same strings is the
// point. It lives on Parse's stack, scratch space included, so parsing a typical
// selector allocates only the finished selector.
type parser struct {
	lex    lexer
	ahead  token
	peeked bool

	// build collects the requirements parsed so far, in input order, and their
	// values.
	build builder
}

// peek returns the next token without consuming it. The keywords "in" and
// "notin" come back as identifiers: everywhere but in operator position they are
// ordinary words, so "in=notin" and "x in (in)" are valid.
func (p *parser) peek() token {
	if !p.peeked {
		p.ahead = p.lex.next()
		p.peeked = true
	}
	t := p.ahead
	if t.kind == tokenIn || t.kind == tokenNotIn {
		t.kind = tokenIdentifier
	}
	return t
}

// take consumes the next token, reading keywords as identifiers as peek does.
func (p *parser) take() token {
	t := p.peek()
	p.peeked = false
	return t
}

// takeOperator consumes the next token with keywords kept as keywords.
func (p *parser) takeOperator() token {
	p.peek()
	p.peeked = false
	return p.ahead
}

// parseSelector reads requirements separated by commas until the end.
func (p *parser) parseSelector() error {
	for {
		switch t := p.peek(); t.kind {
		case tokenIdentifier, tokenNot:
		case tokenEnd:
			return nil
		default:
			return p.unexpected(t, "!, identifier, or end of string")
		}
		if err := p.parseRequirement(); err != nil {
			return err
		}
		switch t := p.take(); t.kind {
		case tokenEnd:
			return nil
		case tokenComma:
			if next := p.peek(); next.kind != tokenIdentifier && next.kind != tokenNot {
				return p.unexpected(next, "identifier after ','")
			}
		default:
			return p.unexpected(t, "',' or end of string")
		}
	}
}

// parseRequirement reads one requirement and adds it to p.build. Its
// errors start with "unable to parse requirement: ", as upstream's do.
func (p *parser) parseRequirement() error {
	if err := p.parseRequirementBody(); err != nil {
		return errors.New("unable to parse requirement: " + err.Error())
	}
	return nil
}

// parseRequirementBody reads the key, the operator and the values of one
// requirement, checks them, and adds the requirement to p.build.
func (p *parser) parseRequirementBody() error {
	key, op, err := p.parseKey()
	if err != nil {
		return err
	}
	start := p.build.values.len()
	if op != opExists && op != opDoesNotExist {
		if op, err = p.parseOperator(); err != nil {
			return err
		}
		if op == opIn || op == opNotIn {
			err = p.parseValueList()
		} else {
			err = p.parseSingleValue()
		}
		if err != nil {
			return err
		}
	}

	// A value list is a set: sort it and drop repeats before checking, as
	// upstream does, so that error messages number the values the same way.
	values := p.build.values.items()[start:]
	if len(values) > 1 {
		values = sortUnique(values)
		p.build.values.truncate(start + len(values))
	}
	// The key was checked as it was read; the rest is checked as NewRequirement
	// checks it.
	if problems := valueProblems(key, op.operator(), values, nil); problems != nil {
		return problemsError(problems)
	}
	p.build.add(key, op, start)
	return nil
}

// parseKey reads "key" or "!key", checks the key, and infers the operator when the
// requirement ends there: Exists for "key", DoesNotExist for "!key". Otherwise
// the operator is left for parseOperator to read.
//
// "!key" is DoesNotExist even when more follows, so "!x=a" parses "!x" and then
// fails on the unexpected '=', as upstream does.
func (p *parser) parseKey() (string, opcode, error) {
	op := opInvalid
	t := p.take()
	if t.kind == tokenNot {
		op = opDoesNotExist
		t = p.take()
	}
	if t.kind != tokenIdentifier {
		return "", op, p.unexpected(t, "identifier")
	}
	key := p.lex.text(t)
	if problem := keyProblem(key); problem != "" {
		return "", op, errors.New(problem)
	}
	if next := p.peek(); (next.kind == tokenEnd || next.kind == tokenComma) && op != opDoesNotExist {
		op = opExists
	}
	return key, op, nil
}

// parseOperator reads a binary operator. This is the one place where "in" and
// "notin" are keywords.
func (p *parser) parseOperator() (opcode, error) {
	t := p.takeOperator()
	switch t.kind {
	case tokenIn:
		return opIn, nil
	case tokenNotIn:
		return opNotIn, nil
	case tokenEquals:
		return opEquals, nil
	case tokenDoubleEquals:
		return opDoubleEquals, nil
	case tokenNotEquals:
		return opNotEquals, nil
	case tokenGreaterThan:
		return opGreaterThan, nil
	case tokenLessThan:
		return opLessThan, nil
	}
	return opInvalid, p.unexpected(t, "in, notin, =, ==, !=, >, <")
}

// parseValueList reads "(v1,v2,...)" for in and notin, appending the values to
// p.build.values. "()" is the set {""}.
func (p *parser) parseValueList() error {
	if t := p.take(); t.kind != tokenOpenParen {
		return p.unexpected(t, "'('")
	}
	switch t := p.peek(); t.kind {
	case tokenIdentifier, tokenComma:
		if err := p.parseValues(); err != nil {
			return err
		}
		// parseValues returns only with ')' next, so this take cannot fail; the
		// check keeps the parser honest should parseValues ever change.
		if t := p.take(); t.kind != tokenCloseParen {
			return p.unexpected(t, "')'")
		}
		return nil
	case tokenCloseParen:
		p.take()
		p.build.values.push("")
		return nil
	default:
		return p.unexpected(t, "',', ')' or identifier")
	}
}

// parseValues reads the inside of a non-empty value list, up to but not
// including the ')'. Values may be empty: a comma with no identifier before or
// after it stands for "". It mirrors upstream's loop exactly, odd corners
// included: "(a,,,)" is {"", a} but "(a,,)" is an error, because upstream steps
// over the second comma of a ",," pair and then insists on an identifier or a
// comma.
func (p *parser) parseValues() error {
	first := p.build.values.len()
	for {
		switch t := p.take(); t.kind {
		case tokenIdentifier:
			p.build.values.push(p.lex.text(t))
			switch next := p.peek(); next.kind {
			case tokenComma:
			case tokenCloseParen:
				return nil
			default:
				return p.unexpected(next, "',' or ')'")
			}
		case tokenComma:
			if p.build.values.len() == first {
				p.build.values.push("") // a list that starts with ','
			}
			switch next := p.peek(); next.kind {
			case tokenCloseParen:
				p.build.values.push("") // a list that ends with ','
				return nil
			case tokenComma:
				p.take()
				p.build.values.push("") // ",," holds an empty value
			}
		default:
			return p.unexpected(t, "',', or identifier")
		}
	}
}

// parseSingleValue reads the value after =, ==, !=, > or <. A missing value,
// as in "x=" or "x=,y", is the empty string.
func (p *parser) parseSingleValue() error {
	if next := p.peek(); next.kind == tokenEnd || next.kind == tokenComma {
		p.build.values.push("")
		return nil
	}
	t := p.take()
	if t.kind != tokenIdentifier {
		return p.unexpected(t, "identifier")
	}
	p.build.values.push(p.lex.text(t))
	return nil
}

// sortUnique sorts values in place and drops repeats, returning the shortened
// slice. It allocates nothing.
func sortUnique(values []string) []string {
	slices.Sort(values)
	return slices.Compact(values)
}

// unexpected reports a token the grammar does not allow where it was found.
func (p *parser) unexpected(t token, expected string) error {
	return errors.New("found " + p.lex.describe(t) + " at column " + strconv.Itoa(t.start+1) + ", expected: " + expected)
}

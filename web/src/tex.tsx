import type { ComponentChildren } from 'preact';

/**
 * TeX as plain text with superscripts and subscripts: what a tutor's formulas need to be read
 * (x², a/b, √x, ≤, α), for a few kilobytes rather than a typesetting engine. The TeX itself stays
 * the accessible name, so a screen reader reads what was written. Anything unknown is shown as typed.
 */

const SYMBOLS: Record<string, string> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', vartheta: 'ϑ',
  iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', upsilon: 'υ',
  phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π',
  Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
  times: '×', cdot: '·', div: '÷', pm: '±', mp: '∓', ast: '∗', circ: '∘', bullet: '•',
  le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', approx: '≈', equiv: '≡', sim: '∼', simeq: '≃', cong: '≅', propto: '∝',
  ll: '≪', gg: '≫', lt: '<', gt: '>',
  to: '→', rightarrow: '→', leftarrow: '←', Rightarrow: '⇒', Leftarrow: '⇐', leftrightarrow: '↔', Leftrightarrow: '⇔',
  iff: '⇔', implies: '⇒', mapsto: '↦', uparrow: '↑', downarrow: '↓',
  infty: '∞', partial: '∂', nabla: '∇', sum: '∑', prod: '∏', int: '∫', oint: '∮', lim: 'lim', log: 'log', ln: 'ln',
  exp: 'exp', sin: 'sin', cos: 'cos', tan: 'tan', min: 'min', max: 'max', det: 'det', gcd: 'gcd', mod: 'mod', bmod: 'mod',
  in: '∈', notin: '∉', ni: '∋', subset: '⊂', subseteq: '⊆', supset: '⊃', supseteq: '⊇', cup: '∪', cap: '∩', emptyset: '∅',
  varnothing: '∅', setminus: '∖', forall: '∀', exists: '∃', neg: '¬', lnot: '¬', land: '∧', wedge: '∧', lor: '∨', vee: '∨',
  oplus: '⊕', otimes: '⊗', perp: '⊥', parallel: '∥', angle: '∠', degree: '°', prime: '′',
  ldots: '…', cdots: '⋯', dots: '…', vdots: '⋮', ddots: '⋱', quad: ' ', qquad: '  ',
  lfloor: '⌊', rfloor: '⌋', lceil: '⌈', rceil: '⌉', langle: '⟨', rangle: '⟩', lvert: '|', rvert: '|', mid: '∣',
  '{': '{', '}': '}', '%': '%', $: '$', '&': '&', '#': '#', _: '_', ',': ' ', ';': ' ', ':': ' ', '!': '', ' ': ' ', '\\': ' ',
};

const BLACKBOARD: Record<string, string> = { N: 'ℕ', Z: 'ℤ', Q: 'ℚ', R: 'ℝ', C: 'ℂ', P: 'ℙ' };
/** Commands whose argument is shown as it is. */
const TEXT_COMMANDS = new Set(['text', 'mathrm', 'mathbf', 'mathit', 'mathsf', 'mathtt', 'operatorname', 'textbf', 'textit', 'boldsymbol', 'mbox', 'mathcal']);
/** Sizing and spacing commands that only shape the typeset result. */
const SILENT = new Set(['left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'displaystyle', 'textstyle', 'limits', 'nolimits']);

type Piece = string | { kind: 'sup' | 'sub'; body: Piece[] };

class Reader {
  private at = 0;
  constructor(private readonly tex: string) {}

  done(): boolean {
    return this.at >= this.tex.length;
  }

  /** Everything up to the end or the closing brace of the group being read. */
  sequence(closing?: string): Piece[] {
    const pieces: Piece[] = [];
    while (!this.done()) {
      if (closing && this.tex[this.at] === closing) {
        this.at++;
        return pieces;
      }
      pieces.push(...this.atom());
    }
    return pieces;
  }

  /** One unit: a group, a command with its arguments, a script, or one character. */
  private atom(): Piece[] {
    const char = this.tex[this.at++]!;
    if (char === '{') return this.sequence('}');
    if (char === '^' || char === '_') return [{ kind: char === '^' ? 'sup' : 'sub', body: this.argument() }];
    if (char === '&') return [' '];
    if (char === '~') return [' '];
    if (char !== '\\') return [char];
    const name = /^[A-Za-z]+/.exec(this.tex.slice(this.at))?.[0] ?? this.tex[this.at] ?? '';
    this.at += name.length;
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac') {
      const [top, bottom] = [this.argument(), this.argument()];
      return [...grouped(top), '/', ...grouped(bottom)];
    }
    if (name === 'sqrt') {
      const index = this.tex[this.at] === '[' ? this.bracketed() : [];
      return [...(index.length ? [{ kind: 'sup' as const, body: index }] : []), '√', ...grouped(this.argument())];
    }
    if (name === 'mathbb') return this.argument().map((piece) => (typeof piece === 'string' ? [...piece].map((c) => BLACKBOARD[c] ?? c).join('') : piece));
    if (TEXT_COMMANDS.has(name)) return this.argument();
    if (name === 'overline' || name === 'bar' || name === 'hat' || name === 'vec' || name === 'tilde') return this.argument();
    if (SILENT.has(name)) return [];
    if (name in SYMBOLS) return [SYMBOLS[name]!];
    return [`\\${name}`];
  }

  /** A command's argument: a braced group or the next single atom. */
  private argument(): Piece[] {
    while (this.tex[this.at] === ' ') this.at++;
    return this.done() ? [] : this.atom();
  }

  private bracketed(): Piece[] {
    this.at++;
    return this.sequence(']');
  }
}

/** A fraction's part keeps its parentheses when it is more than one symbol: (a+b)/2. */
function grouped(pieces: Piece[]): Piece[] {
  const text = pieces.map((p) => (typeof p === 'string' ? p : '?')).join('');
  return text.trim().length > 1 && !/^[\p{L}\p{N}.]+$/u.test(text.trim()) ? ['(', ...pieces, ')'] : pieces;
}

function render(pieces: Piece[]): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      const last = out.length - 1;
      if (typeof out[last] === 'string') out[last] += piece;
      else out.push(piece);
    } else {
      out.push(piece.kind === 'sup' ? <sup>{render(piece.body)}</sup> : <sub>{render(piece.body)}</sub>);
    }
  }
  return out;
}

/** Text nodes only (never markup): the TeX is read, not interpreted as HTML. */
function texToChildren(tex: string): ComponentChildren[] {
  const collapsed = tex.replace(/\s+/g, ' ').trim();
  return render(new Reader(collapsed).sequence());
}

export function Tex({ tex, block }: { tex: string; block?: boolean }) {
  const children = texToChildren(tex);
  return block ? (
    <div class="math math-block" role="math" aria-label={tex}>
      {children}
    </div>
  ) : (
    <span class="math" role="math" aria-label={tex}>
      {children}
    </span>
  );
}

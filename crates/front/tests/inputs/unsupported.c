struct flags { unsigned a : 3; unsigned b : 5; };
long double scale;
float ratio;

int uses_long_double(int x) { return x * scale; }
int uses_bitfield(struct flags *f) { return f->a; }
int fine(int x) { return x + 1; }
int uses_asm(int x) { __asm__("nop"); return x; }
int uses_vla(int n, int m[n][n]) { m[0][0] = 1; return m[0][0]; }
int uses_stmt_expr(int x) { return ({ int y = x; y + 1; }); }
int undeclared(int x) { return x + nope; }
float takes_float_type_only(float *p) { return 0; }
int sizes(void) { return sizeof(double) + sizeof(long double) + sizeof ratio; }
int calls_vla(int n) { return uses_vla(n, 0) + fine(n); }

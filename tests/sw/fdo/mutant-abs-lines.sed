# planted bug for test-fdo-compiler: absolute source lines instead of offsets from the
# function's DW_AT_decl_line (the wrong line offset base; both formats)
s/int off = fr\[k\]\.line - fr\[k\]\.decl_line;/int off = fr[k].line;/

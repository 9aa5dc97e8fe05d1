# planted bug for test-fdo-compiler: the GCC AutoFDO file's 32-bit words in big-endian order
s/uint8_t le\[4\] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };/uint8_t le[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };/

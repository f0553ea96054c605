package doctor

// DecodeTF is decodeTF, for the fuzz test.
var DecodeTF = decodeTF

var BigInteger = {exports: {}};

export { BigInteger as __module };

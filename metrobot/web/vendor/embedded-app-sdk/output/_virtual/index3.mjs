var lodash_transform = {exports: {}};

export { lodash_transform as __module };

// The entry of the yaml side bundle (scripts/yaml-bundle.ts): the package as it is.
module.exports = require('yaml')

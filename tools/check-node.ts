// npm scripts put node_modules/.bin first on PATH, so `node` there is the Node 24 that the `node`
// package brought. Fail early and clearly if something else is running us.
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `This project runs on Node 24 LTS; got ${process.version}. Run it through npm (npm start / npm test), which uses node_modules/.bin/node.`,
  );
  process.exit(1);
}

// Reads healthmesh's user-facing topics with kafkajs and its default settings (no codec plugin registered), the way
// a Node service following the state topics would. Usage: node read-topics.js BROKERS TOPIC=MIN [TOPIC=MIN ...]
// Prints one JSON line: per topic the records read, how many carry the Confluent wire format's magic byte 0, and
// tombstones; exits 0 once every topic gave at least MIN records, 1 when the consumer crashed, 2 on time-out.
const { Kafka, logLevel } = require('kafkajs');

const [brokers, ...specs] = process.argv.slice(2);
const wants = {};
for (const spec of specs) {
  const at = spec.lastIndexOf('=');
  wants[spec.slice(0, at)] = Number(spec.slice(at + 1));
}
const seen = {};
for (const topic of Object.keys(wants)) {
  seen[topic] = { records: 0, wireFormat: 0, tombstones: 0 };
}
const kafka = new Kafka({ clientId: 'healthmesh-kafkajs-check', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: 'healthmesh-kafkajs-check-' + process.pid });
let finished = false;

async function finish(code, error) {
  if (finished) return;
  finished = true;
  console.log(JSON.stringify({ seen, error: error ? String(error && error.stack || error) : null }));
  // a consumer still joining its group can take long to disconnect: exit after two seconds whatever it does
  await Promise.race([consumer.disconnect().catch(() => {}), new Promise(r => setTimeout(r, 2000))]);
  process.exit(code);
}

const allSeen = () => Object.keys(wants).every(t => seen[t].records >= wants[t]);
setTimeout(() => finish(2, 'timed out'), Number(process.env.KAFKAJS_CHECK_TIMEOUT_MS || 60000));
consumer.on(consumer.events.CRASH, e => finish(1, e.payload.error));

(async () => {
  await consumer.connect();
  await consumer.subscribe({ topics: Object.keys(wants), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const s = seen[topic];
      s.records++;
      if (message.value === null) s.tombstones++;
      else if (message.value.length >= 5 && message.value[0] === 0) s.wireFormat++;
      if (allSeen()) await finish(0);
    },
  });
})().catch(e => finish(1, e));

/**
 * The route file: where notifications go (webhook, Slack-compatible webhook, Alertmanager), with each route's
 * filter and timing; parsed from YAML or JSON and validated with every problem reported at once.
 */
package io.healthmesh.notifier.route;

// The service's name in every log line, metric and trace.
export const SERVICE_NAME = 'agent-marketplace';

// The emulated SQS event source's record (lib/local/sqs-poller.ts): a received message becomes the
// SQSRecord Lambda would hand the function, its attributes converted to the event's shape.
import type { Message } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { toRecord } from '../../lib/local/sqs-poller.ts';

const queueArn = 'arn:aws:sqs:us-east-1:000000000000:deliveries';

describe('toRecord', () => {
  it('carries the message, its system attributes and its message attributes (binary values in base64)', () => {
    const message: Message = {
      MessageId: 'm-1',
      ReceiptHandle: 'rh-1',
      Body: '{"deliveryId":"dlv_1"}',
      MD5OfBody: 'md5-body',
      MD5OfMessageAttributes: 'md5-attributes',
      Attributes: { ApproximateReceiveCount: '3', SentTimestamp: '1700000000000', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '1700000000100', MessageGroupId: 'group-1' },
      MessageAttributes: {
        kind: { DataType: 'String', StringValue: 'delivery' },
        blob: { DataType: 'Binary', BinaryValue: Buffer.from('hi') },
      },
    };
    expect(toRecord(message, queueArn)).toEqual({
      messageId: 'm-1',
      receiptHandle: 'rh-1',
      body: '{"deliveryId":"dlv_1"}',
      attributes: { ApproximateReceiveCount: '3', SentTimestamp: '1700000000000', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '1700000000100', MessageGroupId: 'group-1' },
      messageAttributes: {
        kind: { dataType: 'String', stringValue: 'delivery', binaryValue: undefined, stringListValues: [], binaryListValues: [] },
        blob: { dataType: 'Binary', stringValue: undefined, binaryValue: Buffer.from('hi').toString('base64'), stringListValues: [], binaryListValues: [] },
      },
      md5OfBody: 'md5-body',
      md5OfMessageAttributes: 'md5-attributes',
      eventSource: 'aws:sqs',
      eventSourceARN: queueArn,
      awsRegion: expect.any(String),
    });
  });

  it('fills what a sparse message lacks as Lambda would: a first receive, no FIFO attributes, empty body', () => {
    const record = toRecord({ MessageId: 'm-2', ReceiptHandle: 'rh-2' }, queueArn);
    expect(record.body).toBe('');
    expect(record.attributes.ApproximateReceiveCount).toBe('1');
    expect(record.attributes).not.toHaveProperty('MessageGroupId');
    expect(record.messageAttributes).toEqual({});
    expect(record).not.toHaveProperty('md5OfMessageAttributes');
  });
});

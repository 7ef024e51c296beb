// Bedrock names media by a short `format`; the canonical model by MIME type.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html

const IMAGE_FORMATS: Record<string, string> = {
  png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
};

const DOCUMENT_FORMATS: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  txt: 'text/plain',
  md: 'text/markdown',
};

export function imageMediaType(format: string): string | undefined {
  return IMAGE_FORMATS[format];
}

export function documentMediaType(format: string): string | undefined {
  return DOCUMENT_FORMATS[format];
}

export function imageFormat(mediaType: string): string | undefined {
  return findKey(IMAGE_FORMATS, mediaType === 'image/jpg' ? 'image/jpeg' : mediaType);
}

export function documentFormat(mediaType: string): string | undefined {
  return findKey(DOCUMENT_FORMATS, mediaType.split(';')[0]?.trim() ?? '');
}

function findKey(table: Record<string, string>, value: string): string | undefined {
  return Object.entries(table).find(([, type]) => type === value)?.[0];
}

import type { Finding } from '@pledgewatch/contract';
import { z } from 'zod';
import { isXmlLimitError, SafeXmlParser } from '../../../../../lib/xml/safe-xml.ts';
import { ProviderFailure } from '../provider-failure.ts';
import { compactPayload, finalizeFindings, requireDate } from '../provider-findings.ts';
import { parseShape } from '../provider-http.ts';

/**
 * Fedresurs (ЕФРСБ) REST answers → `bankruptcy` findings: the one place its mapping lives
 * (docs/providers.md). Paths, the auth body and `pageData` are agreed by several clients (medium-high);
 * the XML elements read from a message's content (CaseNumber, DecisionType@Name, MessageInfo@MessageType)
 * and the Russian names of message types are to be confirmed by a recorded real answer.
 *
 * One finding per court case: key and case_number from the messages' `CaseNumber`; status `closed`
 * once a message completes or ends the case, else `open`; opened_at the case's first message's date;
 * last_message / last_message_at its latest message's type (in Russian) and date; debtor the debtor's name.
 */
export const MESSAGE_TYPES: Readonly<Record<string, string>> = {
  ArbitralDecree: 'Сообщение о судебном акте',
  Auction: 'Объявление о проведении торгов',
  Meeting: 'Сообщение о собрании кредиторов',
  MeetingResult: 'Сообщение о результатах собрания кредиторов',
  TradeResult: 'Сообщение о результатах торгов',
  SaleContractResult2: 'Сведения о заключении договора купли-продажи',
  PropertyInventoryResult: 'Сведения о результатах инвентаризации имущества',
  PropertyEvaluationReport: 'Отчёт оценщика об оценке имущества',
  DeliberateBankruptcy: 'Сообщение о наличии или отсутствии признаков преднамеренного банкротства',
  IntentionCreditOrgBankrupt: 'Сообщение о намерении обратиться в суд с заявлением о банкротстве',
  ReceivingCreditorDemand: 'Сообщение о получении требования кредитора',
  DemandAnnouncement: 'Извещение о возможности предъявления требований',
  CourtAssertAcceptance: 'Сообщение о принятии заявления о признании должника банкротом',
  StartOfExtrajudicialBankruptcy: 'Сообщение о возбуждении процедуры внесудебного банкротства гражданина',
  TerminationOfExtrajudicialBankruptcy:
    'Сообщение о прекращении процедуры внесудебного банкротства гражданина',
  CompletionOfExtrajudicialBankruptcy: 'Сообщение о завершении процедуры внесудебного банкротства гражданина',
  ReturnOfApplicationOnExtrajudicialBankruptcy:
    'Сообщение о возврате гражданину заявления о внесудебном банкротстве',
  FinancialLeaseContract: 'Сведения о договоре финансовой аренды (лизинга)',
  CreationRightOfPledge2: 'Сведения о возникновении залога',
  Other: 'Иное сообщение',
};

/** Words in a message's type or court decision that end a case. */
const CLOSING = /заверш|прекращ|Completion|Termination/i;
const EXTRAJUDICIAL_CASE = 'внесудебное банкротство';

export const bankruptsAnswerSchema = z.object({
  total: z.number().optional(),
  pageData: z.array(
    z
      .object({
        guid: z.string().min(1),
        data: z
          .object({
            name: z.string().optional(),
            lastName: z.string().optional(),
            firstName: z.string().optional(),
            middleName: z.string().optional(),
          })
          .loose()
          .optional(),
      })
      .loose(),
  ),
});
export type Bankrupt = z.infer<typeof bankruptsAnswerSchema>['pageData'][number];

export const messagesAnswerSchema = z.object({
  total: z.number().optional(),
  pageData: z.array(
    z
      .object({
        guid: z.string().optional(),
        number: z.union([z.string(), z.number()]).optional(),
        datePublish: z.string(),
        type: z.string(),
        content: z.string().optional().nullable(),
      })
      .loose(),
  ),
});

/** A message's XML content is small; these caps refuse a hostile one before it costs anything. */
const MESSAGE_XML_LIMITS = { maxDepth: 32, maxElements: 5000, maxBytes: 1024 * 1024 };

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * What a message's XML content says about its case, read with the streaming-safe parser (lib/xml:
 * no DOCTYPE or entities, capped depth, elements and size). Unreadable XML is an unreadable answer.
 */
export function readMessageXml(content: string): {
  messageType?: string;
  caseNumber?: string;
  decision?: string;
} {
  const found: { messageType?: string; caseNumber?: string; decision?: string } = {};
  let inCaseNumber = false;
  let caseText = '';
  const parser = new SafeXmlParser(MESSAGE_XML_LIMITS, {
    opentag(tag) {
      const name = localName(tag.name);
      if (name === 'MessageInfo') {
        found.messageType ??= tag.attributes.MessageType;
      } else if (name === 'DecisionType') {
        found.decision ??= tag.attributes.Name;
      } else if (name === 'CaseNumber' && found.caseNumber === undefined) {
        inCaseNumber = true;
      }
    },
    closetag(tag) {
      if (inCaseNumber && localName(tag.name) === 'CaseNumber') {
        inCaseNumber = false;
        found.caseNumber = caseText.trim() || undefined;
      }
    },
    text(text) {
      if (inCaseNumber) {
        caseText += text;
      }
    },
  });
  try {
    parser.write(content);
    parser.close();
  } catch (error) {
    throw new ProviderFailure(
      'unreadable',
      isXmlLimitError(error) ? error.message : 'содержание сообщения: некорректный XML',
    );
  }
  return found;
}

const debtorName = (bankrupt: Bankrupt) =>
  bankrupt.data?.name ??
  ([bankrupt.data?.lastName, bankrupt.data?.firstName, bankrupt.data?.middleName].filter(Boolean).join(' ') ||
    undefined);

interface CaseMessage {
  date: string;
  type: string;
  text: string;
  closes: boolean;
}

/** The findings of one debtor's messages, one per case. */
export function bankruptcyFindings(bankrupt: Bankrupt, messages: unknown): Finding[] {
  const { pageData } = parseShape(messagesAnswerSchema, messages);
  const cases = new Map<string, CaseMessage[]>();
  for (const message of pageData) {
    const xml = message.content ? readMessageXml(message.content) : {};
    const messageType = xml.messageType ?? message.type;
    const decision = xml.decision;
    const caseNumber = xml.caseNumber ?? (/Extrajudicial/.test(messageType) ? EXTRAJUDICIAL_CASE : undefined);
    if (!caseNumber) {
      continue;
    }
    const typeText = MESSAGE_TYPES[messageType] ?? `Сообщение (${messageType})`;
    const list = cases.get(caseNumber) ?? [];
    list.push({
      date: requireDate(message.datePublish, 'datePublish'),
      type: messageType,
      text: decision ? `${typeText}: ${decision}` : typeText,
      closes: CLOSING.test(decision ?? '') || CLOSING.test(messageType),
    });
    cases.set(caseNumber, list);
  }
  return finalizeFindings(
    [...cases].map(([caseNumber, list]) => {
      const sorted = list.toSorted((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const latest = sorted.at(-1)!;
      const closing = sorted.findLast((message) => message.closes);
      return {
        key: caseNumber,
        payload: compactPayload({
          case_number: caseNumber,
          status: closing ? 'closed' : 'open',
          opened_at: sorted[0]!.date,
          closed_at: closing?.date,
          debtor: debtorName(bankrupt),
          last_message: latest.text,
          last_message_at: latest.date,
        }),
      };
    }),
    'case_number',
  );
}

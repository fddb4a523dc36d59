import type { Finding } from '@pledgewatch/contract';
import { z } from 'zod';
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

/**
 * One element's text or attribute from a message's XML content. Bounded patterns over a string at most
 * the answer's 5 MB: no XML parser, so no entity expansion; a missing element is just absent.
 */
function xmlText(xml: string, element: string): string | undefined {
  const match = new RegExp(`<${element}(?:\\s[^>]{0,500})?>([^<]{1,200})</${element}>`).exec(xml);
  return match?.[1]?.trim() || undefined;
}
function xmlAttribute(xml: string, element: string, attribute: string): string | undefined {
  const match = new RegExp(`<${element}\\s[^>]{0,500}?\\b${attribute}="([^"]{1,300})"`).exec(xml);
  return match?.[1]?.trim() || undefined;
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
    const content = message.content ?? '';
    const messageType = xmlAttribute(content, 'MessageInfo', 'MessageType') ?? message.type;
    const decision = xmlAttribute(content, 'DecisionType', 'Name');
    const caseNumber =
      xmlText(content, 'CaseNumber') ?? (/Extrajudicial/.test(messageType) ? EXTRAJUDICIAL_CASE : undefined);
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

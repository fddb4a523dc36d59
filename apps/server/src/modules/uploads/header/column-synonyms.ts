/**
 * The usual names of the columns banks' core systems export, one table per field, shared by the
 * upload kinds that hold the field. Written as people write them: headerLookup normalises both sides
 * (case, «ё», punctuation, brackets, «№», spaces). A bare «Номер» or «№» names no field: it is the
 * row counter as often as anything else.
 */

export const VIN_SYNONYMS = [
  'VIN',
  'VIN-код',
  'VIN код',
  'VIN номер',
  'Номер VIN',
  'ВИН',
  'Идентификационный номер',
  'Идентификационный номер ТС',
  'Идентификационный номер транспортного средства',
  'ИН ТС',
] as const;

export const CONTRACT_NUMBER_SYNONYMS = [
  'Номер договора',
  'Договор',
  'Договор №',
  'Номер договора залога',
  'Договор залога',
  'Номер кредитного договора',
  'Кредитный договор',
  'Номер договора лизинга',
  'Договор лизинга',
  'contract',
  'contract number',
  'contract no',
] as const;

export const PLEDGOR_NAME_SYNONYMS = [
  'Залогодатель',
  'ФИО залогодателя',
  'Наименование залогодателя',
  'Залогодатель ФИО',
  'ФИО',
  'Заемщик',
  'ФИО заемщика',
  'Наименование заемщика',
  'Лизингополучатель',
  'pledgor',
  'pledgor name',
  'borrower',
] as const;

export const DOCUMENT_NUMBER_SYNONYMS = [
  'Номер документа',
  'Серия и номер',
  'Серия и номер документа',
  'Серия и номер паспорта',
  'Паспорт',
  'Паспорт залогодателя',
  'Документ',
  'ИНН',
  'ИНН залогодателя',
  'ОГРН',
  'ОГРНИП',
  'document',
  'document number',
  'doc number',
  'number',
] as const;

export const DOCUMENT_TYPE_SYNONYMS = [
  'Тип документа',
  'Вид документа',
  'Тип',
  'document type',
  'doc type',
  'type',
] as const;

export const LABEL_SYNONYMS = [
  'Метка',
  'Примечание',
  'Комментарий',
  'Описание',
  'Название',
  'Марка, модель',
  'Марка и модель',
  'Марка модель ТС',
  'Наименование ТС',
  'Предмет залога',
  'label',
  'note',
  'comment',
] as const;

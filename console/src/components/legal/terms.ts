import type { LegalText } from './legal-text.tsx';

/** Website terms of use: 15 sections, last updated 14 June 2567 (2024). */
export const terms: Record<'th' | 'en', LegalText> = {
  th: {
    title: 'ข้อกำหนดและเงื่อนไขการใช้งานเว็บไซต์',
    updated: 'ปรับปรุงล่าสุดเมื่อวันที่ 14 มิถุนายน 2567',
    sections: [
      [
        'คำนิยาม',
        'ในข้อกำหนดนี้ “ผู้ให้บริการ” หมายถึงเจ้าของเว็บไซต์ซึ่งจัดหลักสูตรอบรม “ผู้ใช้” หมายถึงบุคคลที่เข้าใช้เว็บไซต์ รวมถึงสมาชิก พาร์ทเนอร์ (ผู้สอน) และผู้ดูแลระบบ และ “บริการ” หมายถึงการสมัครสมาชิก การลงทะเบียนหลักสูตร และการบันทึกการเข้าเรียนผ่านคิวอาร์โค้ด',
      ],
      ['การยอมรับข้อกำหนด', 'การสมัครสมาชิกหรือการใช้บริการถือว่าผู้ใช้ได้อ่าน เข้าใจ และยอมรับข้อกำหนดนี้แล้ว หากไม่ยอมรับ โปรดงดใช้บริการ'],
      [
        'การเปิดบัญชีและสิทธิ์การเข้าถึง',
        'ผู้ให้บริการแต่เพียงผู้เดียวเป็นผู้อนุมัติการเปิดบัญชีผู้ใช้ และกำหนดสิทธิ์การเข้าถึงตามประเภทบัญชี (สมาชิก พาร์ทเนอร์ ผู้ดูแลระบบ) บัญชีที่ยังรอการยืนยันหรือไม่ได้รับการยืนยันจะเข้าสู่ระบบไม่ได้',
      ],
      [
        'ข้อมูลที่ผู้ใช้ให้',
        'ผู้ใช้ต้องให้ข้อมูลที่ถูกต้อง ครบถ้วน และเป็นปัจจุบัน รวมถึงเลขบัตรประชาชน เบอร์โทรศัพท์ และอีเมล และต้องแก้ไขข้อมูลเมื่อมีการเปลี่ยนแปลงผ่านหน้าตั้งค่าบัญชี',
      ],
      [
        'การรักษาความปลอดภัยของบัญชี',
        'ผู้ใช้ต้องเก็บรักษาชื่อผู้ใช้และรหัสผ่านเป็นความลับ และแจ้งผู้ให้บริการทันทีเมื่อสงสัยว่ามีผู้อื่นใช้บัญชีของตน ระบบจะระงับการเข้าสู่ระบบชั่วคราวเมื่อใส่รหัสผ่านผิดหลายครั้ง',
      ],
      [
        'การลงทะเบียนหลักสูตรและการเข้าเรียน',
        'การเข้าเรียนในแต่ละรอบบันทึกโดยการสแกนคิวอาร์โค้ดของสมาชิก สมาชิกต้องแสดงคิวอาร์โค้ดของตนเองเท่านั้น การสแกนแทนผู้อื่นถือเป็นการผิดข้อกำหนด',
      ],
      [
        'หน้าที่ของพาร์ทเนอร์',
        'พาร์ทเนอร์ต้องดำเนินการสอนและบันทึกการเข้าเรียนตามจริง ใช้ข้อมูลของสมาชิกเพื่อการจัดการเรียนการสอนเท่านั้น และไม่เปิดเผยข้อมูลดังกล่าวแก่บุคคลอื่น',
      ],
      [
        'การใช้งานที่ห้าม',
        'ห้ามใช้เว็บไซต์เพื่อการใดที่ผิดกฎหมาย ห้ามพยายามเข้าถึงระบบหรือข้อมูลของผู้อื่นโดยไม่ได้รับอนุญาต และห้ามรบกวนการทำงานของระบบ',
      ],
      [
        'ทรัพย์สินทางปัญญา',
        'เนื้อหา หลักสูตร เครื่องหมาย และซอฟต์แวร์บนเว็บไซต์เป็นของผู้ให้บริการหรือผู้อนุญาต ห้ามทำซ้ำหรือเผยแพร่โดยไม่ได้รับอนุญาตเป็นลายลักษณ์อักษร',
      ],
      [
        'ข้อมูลส่วนบุคคล',
        'ผู้ให้บริการเก็บรวบรวม ใช้ และเปิดเผยข้อมูลส่วนบุคคลตามพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562 และตามหนังสือแจ้งการขอความยินยอมที่แสดงบนเว็บไซต์',
      ],
      [
        'การจำกัดความรับผิด',
        'ผู้ให้บริการพยายามให้บริการอย่างต่อเนื่องและถูกต้อง แต่ไม่รับประกันว่าบริการจะไม่ขัดข้อง และไม่รับผิดต่อความเสียหายทางอ้อมที่เกิดจากการใช้บริการ เว้นแต่กฎหมายกำหนดไว้เป็นอย่างอื่น',
      ],
      [
        'การระงับหรือยกเลิกบัญชี',
        'ผู้ให้บริการอาจระงับหรือยกเลิกบัญชีที่ฝ่าฝืนข้อกำหนดนี้ ผู้ใช้อาจขอยกเลิกบัญชีและลบข้อมูลส่วนบุคคลของตนได้โดยติดต่อผู้ให้บริการ',
      ],
      [
        'การเปลี่ยนแปลงข้อกำหนด',
        'ผู้ให้บริการอาจแก้ไขข้อกำหนดนี้ได้ โดยจะแสดงวันที่ปรับปรุงล่าสุดไว้ที่หน้านี้ การใช้บริการต่อหลังการแก้ไขถือว่ายอมรับข้อกำหนดที่แก้ไขแล้ว',
      ],
      ['กฎหมายที่ใช้บังคับ', 'ข้อกำหนดนี้อยู่ภายใต้กฎหมายแห่งราชอาณาจักรไทย ข้อพิพาทใดที่เกิดขึ้นให้อยู่ในอำนาจของศาลไทย'],
      ['การติดต่อ', 'หากมีคำถามเกี่ยวกับข้อกำหนดนี้ โปรดติดต่อผู้ให้บริการผ่านหน้าติดต่อเรา'],
    ],
  },
  en: {
    title: 'Website terms of use',
    updated: 'Last updated 14 June 2024 (2567 BE)',
    sections: [
      [
        'Definitions',
        '“The provider” is the owner of this website, who runs the training courses. “Users” are the people who use the website: members, partners (instructors) and administrators. “The service” is registration, course enrolment and recording class attendance by QR code.',
      ],
      [
        'Acceptance',
        'By registering or using the service you confirm that you have read, understood and accepted these terms. If you do not accept them, please do not use the service.',
      ],
      [
        'Opening accounts and access rights',
        'The provider alone approves the opening of accounts and sets the access rights of each type of account (member, partner, administrator). An account awaiting confirmation, or not confirmed, cannot sign in.',
      ],
      [
        'The data you give',
        'You must give accurate, complete and current data, including your national ID number, phone number and e-mail address, and keep it up to date on the account settings page.',
      ],
      [
        'Keeping your account safe',
        'Keep your username and password secret and tell the provider at once if you think someone else has used your account. Sign-in is paused for a while after several wrong passwords.',
      ],
      [
        'Enrolment and attendance',
        'Attendance in each round is recorded by scanning the member’s QR code. Show only your own QR code; scanning on behalf of someone else breaks these terms.',
      ],
      [
        'Partners’ duties',
        'Partners must teach and record attendance truthfully, use members’ data only to run their classes, and not disclose it to anyone else.',
      ],
      [
        'Forbidden use',
        'Do not use the website for anything unlawful, do not try to reach systems or other people’s data without permission, and do not disrupt the service.',
      ],
      [
        'Intellectual property',
        'The content, courses, marks and software of the website belong to the provider or its licensors. Do not copy or publish them without written permission.',
      ],
      [
        'Personal data',
        'The provider collects, uses and discloses personal data under the Personal Data Protection Act B.E. 2562 (2019) and the consent notice shown on this website.',
      ],
      [
        'Limitation of liability',
        'The provider tries to keep the service available and correct but does not guarantee it will never be interrupted, and is not liable for indirect loss from its use, except where the law says otherwise.',
      ],
      [
        'Suspension and closing of accounts',
        'The provider may suspend or close an account that breaks these terms. You may ask the provider to close your account and erase your personal data.',
      ],
      [
        'Changes to these terms',
        'The provider may change these terms; the date of the last update is shown on this page. Using the service after a change means you accept the changed terms.',
      ],
      [
        'Governing law',
        'These terms are governed by the laws of the Kingdom of Thailand, and Thai courts have jurisdiction over any dispute.',
      ],
      ['Contact', 'For questions about these terms, contact the provider through the Contact page.'],
    ],
  },
};

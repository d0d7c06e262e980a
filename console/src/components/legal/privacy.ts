import type { LegalText } from './legal-text.tsx';

/** The consent notice for collecting personal data (PDPA), last updated 16 June 2568 (2025). */
export const privacy: Record<'th' | 'en', LegalText> = {
  th: {
    title: 'หนังสือแจ้งการขอความยินยอมในการเก็บรวบรวม ใช้ และเปิดเผยข้อมูลส่วนบุคคล',
    updated: 'ปรับปรุงล่าสุดเมื่อวันที่ 16 มิถุนายน 2568',
    sections: [
      [
        'ผู้ควบคุมข้อมูลส่วนบุคคล',
        'ผู้ให้บริการหลักสูตรอบรมซึ่งเป็นเจ้าของเว็บไซต์นี้เป็นผู้ควบคุมข้อมูลส่วนบุคคลตามพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562',
      ],
      [
        'ข้อมูลที่เก็บรวบรวม',
        'ชื่อผู้ใช้ คำนำหน้า ชื่อ-นามสกุล เลขบัตรประชาชน เบอร์โทรศัพท์ อีเมล ที่อยู่ รูปโปรไฟล์ (ถ้ามี) ข้อมูลบริษัทของพาร์ทเนอร์ และบันทึกการเข้าเรียน (เวลาที่สแกนและผู้สแกน) เราไม่เก็บรหัสผ่านในรูปที่อ่านได้',
      ],
      [
        'วัตถุประสงค์',
        'เพื่อยืนยันตัวตนและอนุมัติบัญชี จัดการการลงทะเบียนหลักสูตร บันทึกและรายงานการเข้าเรียน ติดต่อผู้ใช้เกี่ยวกับหลักสูตร และปฏิบัติตามกฎหมาย',
      ],
      [
        'ฐานทางกฎหมายและความยินยอม',
        'เราประมวลผลข้อมูลตามความยินยอมของท่านและเพื่อปฏิบัติตามสัญญาการให้บริการ ระบบบันทึกวันที่และฉบับของข้อความที่ท่านให้ความยินยอม',
      ],
      [
        'การเปิดเผยข้อมูล',
        'ผู้ดูแลระบบและพาร์ทเนอร์ผู้สอนหลักสูตรที่ท่านลงทะเบียนเห็นข้อมูลเท่าที่จำเป็นต่อการจัดการเรียนการสอน เราไม่ขายหรือเปิดเผยข้อมูลแก่บุคคลภายนอก เว้นแต่กฎหมายกำหนด',
      ],
      [
        'การรักษาความปลอดภัย',
        'ข้อมูลส่วนบุคคลในบันทึกเหตุการณ์ของระบบถูกเข้ารหัสด้วยกุญแจเฉพาะของแต่ละบุคคล การเข้าถึงทุกครั้งต้องผ่านการยืนยันตัวตนและสิทธิ์บนเซิร์ฟเวอร์',
      ],
      [
        'ระยะเวลาการเก็บรักษา',
        'เราเก็บข้อมูลตลอดระยะเวลาที่บัญชียังใช้งาน เมื่อบัญชีถูกลบหรือท่านขอลบข้อมูล กุญแจของท่านจะถูกทำลาย ทำให้ข้อมูลส่วนบุคคลไม่สามารถอ่านได้อีก โดยยังคงสถิติที่ไม่ระบุตัวตนไว้',
      ],
      [
        'สิทธิของเจ้าของข้อมูล',
        'ท่านมีสิทธิขอเข้าถึง ขอสำเนา ขอแก้ไข ขอลบ ขอระงับการใช้ คัดค้าน ขอโอนย้ายข้อมูล และถอนความยินยอมได้ตลอดเวลา รวมถึงร้องเรียนต่อสำนักงานคณะกรรมการคุ้มครองข้อมูลส่วนบุคคล',
      ],
      ['การติดต่อ', 'หากต้องการใช้สิทธิหรือมีคำถาม โปรดติดต่อผู้ให้บริการผ่านหน้าติดต่อเรา'],
    ],
  },
  en: {
    title: 'Consent notice for the collection, use and disclosure of personal data',
    updated: 'Last updated 16 June 2025 (2568 BE)',
    sections: [
      [
        'Data controller',
        'The training provider who owns this website is the data controller under the Personal Data Protection Act B.E. 2562 (2019).',
      ],
      [
        'What we collect',
        'Username, title, full name, national ID number, phone number, e-mail, address, profile photo (if any), partners’ company details, and attendance records (when you were scanned and by whom). Passwords are never kept in readable form.',
      ],
      [
        'Why',
        'To identify you and approve your account, manage course enrolment, record and report attendance, contact you about your courses, and meet legal duties.',
      ],
      [
        'Legal basis and consent',
        'We process your data with your consent and to provide the service you signed up for. The date and the version of the text you agreed to are recorded.',
      ],
      [
        'Who sees it',
        'Administrators, and the partners teaching the courses you enrol in, see only what they need to run the classes. We do not sell your data or disclose it to others unless the law requires it.',
      ],
      [
        'Security',
        'Personal data in the system’s event log is encrypted with a key of your own. Every access is checked on the server against the signed-in user and their rights.',
      ],
      [
        'How long',
        'We keep your data while your account is active. When your account is deleted or you ask for erasure, your key is destroyed, so your personal data can no longer be read; only anonymous counts remain.',
      ],
      [
        'Your rights',
        'You may ask to access, copy, correct, erase, restrict or move your data, object to its use, and withdraw your consent at any time, and you may complain to the Personal Data Protection Committee.',
      ],
      ['Contact', 'To use your rights or ask a question, contact the provider through the Contact page.'],
    ],
  },
};
